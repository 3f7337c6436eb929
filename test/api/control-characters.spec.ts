import { expect } from 'chai';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

/** A name that retitles a terminal: OSC 0 ("pwned"), ended by BEL. */
const RETITLING = '\u001b]0;pwned\u0007';

describe('Control characters in names', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let monitorId: string;

  before(async () => {
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('owner@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Jobs' } })).body.project.id;
    monitorId = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Backup', type: 'JOB_HEARTBEAT', schedule: '1d' } })).body.monitor.id;
  });
  after(() => vigil.stop());

  const refused = async (method: string, path: string, body: unknown) => {
    const answer = await vigil.request(method, path, { key, body });
    expect(answer.status, answer.text).to.equal(400);
    return answer.body.error as string;
  };

  it('refuses ESC, BEL, CR, LF, tab, DEL and C1 in a name with a 400 that names the field and the character', async () => {
    const cases: [string, string][] = [[RETITLING, 'U+001B'], ['Backup\u0007', 'U+0007'], ['Backup\rok', 'U+000D'], ['Backup\nok', 'U+000A'], ['Back\tup', 'U+0009'], ['Backup\u007f', 'U+007F'], ['Backup\u009b2J', 'U+009B']];
    for (const [name, character] of cases) {
      const error = await refused('POST', '/v1/monitors', { project_id: projectId, name, type: 'JOB_HEARTBEAT', schedule: '1d' });
      expect(error).to.match(new RegExp(`^name must not contain control characters \\(${character.replace('+', '\\+')} at character \\d+\\)`));
    }
  });

  it('refuses them in the names and titles of projects, monitors, tags, channels, groups, status pages, maintenance windows and keys', async () => {
    expect(await refused('POST', '/v1/projects', { name: RETITLING })).to.match(/^name must not contain control characters/);
    expect(await refused('PATCH', `/v1/projects/${projectId}`, { name: RETITLING })).to.match(/^name must not contain control characters/);
    expect(await refused('PATCH', `/v1/monitors/${monitorId}`, { name: RETITLING })).to.match(/^name must not contain control characters/);
    expect(await refused('PATCH', `/v1/monitors/${monitorId}`, { tags: ['ok', RETITLING] })).to.match(/^tags\[1\] must not contain control characters/);
    expect(await refused('POST', '/v1/notification-channels', { project_id: projectId, name: RETITLING, type: 'WEBHOOK', config: { url: 'http://127.0.0.1:9/' } })).to.match(/^name must not contain/);
    expect(await refused('POST', '/v1/notification-groups', { project_id: projectId, name: RETITLING })).to.match(/^name must not contain/);
    expect(await refused('POST', `/v1/projects/${projectId}/status-pages`, { slug: 'jobs', title: RETITLING })).to.match(/^title must not contain/);
    expect(await refused('POST', `/v1/projects/${projectId}/status-pages`, { slug: 'jobs', title: 'Jobs', monitors: [{ monitor_id: monitorId, display_name: RETITLING }] }))
      .to.match(/^monitors\[0\]\.display_name must not contain/);
    expect(await refused('POST', `/v1/projects/${projectId}/maintenance-windows`, { name: RETITLING, starts_at: '2026-12-01T00:00:00Z', ends_at: '2026-12-01T01:00:00Z' }))
      .to.match(/^name must not contain/);
    expect(await refused('POST', '/v1/api-keys', { name: RETITLING, expires_in_days: 7 })).to.match(/^name must not contain/);
  });

  it('takes line breaks and tabs in a description, but no other control character', async () => {
    const written = await vigil.request('PATCH', `/v1/monitors/${monitorId}`, { key, body: { description: 'Nightly.\r\n\tThen the dump.' } });
    expect(written.status, written.text).to.equal(200);
    expect(written.body.monitor.description).to.equal('Nightly.\r\n\tThen the dump.');
    expect(await refused('PATCH', `/v1/monitors/${monitorId}`, { description: `Nightly ${RETITLING}` })).to.match(/^description must not contain control characters \(U\+001B/);
    expect(await refused('PATCH', `/v1/projects/${projectId}`, { description: 'a\u0008b' })).to.match(/^description must not contain/);
  });
});
