import * as t from 'io-ts';
import { BodyOf, BoundedString, Checked, Integer, OneOf, Uuid } from '../validation.js';
import { UptimeUrl } from './monitors.js';

const Hostname = Checked<string>(
  'a host name',
  (u) =>
    (typeof u === 'string' && /^[A-Za-z0-9.-]{1,253}$/.test(u)) || (typeof u === 'string' && /^[0-9a-fA-F:]{2,39}$/.test(u))
      ? { ok: true, value: String(u) }
      : { ok: false, message: 'hostname must be a host name or an IP address' },
  { type: 'string', maxLength: 253, description: 'a host name or an IP address' },
);

/** The project the run is on behalf of, as a monitor's: the caller must be able to create monitors there. Optional with a project key. */
const onBehalfOf = { project_id: Uuid };

export const CheckHttpBody = BodyOf({ url: UptimeUrl }, { method: OneOf(['GET', 'HEAD', 'POST'] as const), follow_redirects: t.boolean, ...onBehalfOf });
export const CheckSslBody = BodyOf({ hostname: Hostname }, { port: Integer(1, 65535), ...onBehalfOf });
export const CheckDnsBody = BodyOf({ hostname: BoundedString(1, 253) }, { ...onBehalfOf });
