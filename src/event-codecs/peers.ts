import * as t from 'io-ts';
import { oneOf } from './fields.js';

export const peerEventCodecs = {
  PeerAliasClaimed: t.type({
    peer: oneOf(['healthchecks', 'uptime_kuma'], 'PeerTool'),
    alias_hash: t.string,
    project_id: t.string,
    monitor_id: t.string,
    claimed_at: t.string,
  }),
};
