import { expect } from 'chai';
import type { MonitorDocument } from '../../projections/monitors.js';
import { ALL_SCOPES, type TestVigil } from './test-vigil.js';

/**
 * A nightly job monitor in a project of its own, and what the dashboard specs do with it: read its
 * document once the read models are settled, and ping it (`suffix`: `start`, `0`, `fail`, `log`, …).
 */
export async function jobMonitor(vigil: TestVigil, body: Record<string, unknown> = {}) {
  const owner = await vigil.user('owner@example.com');
  const key = await vigil.accountKey(owner, ALL_SCOPES);
  const project = await vigil.project(owner);
  const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project, name: 'Nightly', type: 'JOB_BASIC', schedule: '0 3 * * *', ...body } });
  expect(created.status).to.equal(201);
  const id: string = created.body.monitor.id;
  const doc = async () => {
    await vigil.settle();
    return (await vigil.vigil.stores.readModels.get<MonitorDocument>('monitors', id))!.doc;
  };
  const ping = async (suffix: string) => expect((await fetch(`${vigil.url}/v1/ping/${id}/${suffix}`, { method: 'POST' })).status).to.equal(200);
  return { id, key, doc, ping };
}
