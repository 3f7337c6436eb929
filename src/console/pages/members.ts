import type { Role } from '../../domain/access/roles.js';
import { utc } from '../format.js';
import { type Html, html } from '../html.js';
import { csrfField } from '../layout.js';
import { type SettingsFrame, postButton, settingsPage } from './settings.js';

export interface MemberRow {
  userId: string;
  email: string;
  name: string;
  role: Role;
  joinedAt: string;
}

export interface MembersView extends SettingsFrame {
  members: MemberRow[];
  canManage: boolean;
  roles: readonly Exclude<Role, 'OWNER'>[];
}

export function membersPage(v: MembersView): Html {
  const { project, viewer } = v;
  const base = `/projects/${project.id}/settings`;
  const rows = v.members.map((m) => html`<tr data-user-id="${m.userId}">
<td><strong>${m.email}</strong><span class="monitor-slug">${m.name}</span></td>
<td>${v.canManage && m.role !== 'OWNER'
  ? html`<form method="post" action="${base}/members/${m.userId}/role" class="inline-form">${csrfField(viewer)}<label class="visually-hidden" for="role-${m.userId}">Role of ${m.email}</label><select id="role-${m.userId}" name="role">${v.roles.map((r) => html`<option value="${r}"${r === m.role ? html` selected` : null}>${r}</option>`)}</select> <button type="submit" class="button button-small button-secondary">Change role</button></form>`
  : html`<span class="role role-${m.role.toLowerCase()}">${m.role}</span>`}</td>
<td class="nowrap">${utc(m.joinedAt)}</td>
<td class="row-actions">${v.canManage && m.role !== 'OWNER' ? postButton(viewer, `${base}/members/${m.userId}/remove`, 'Remove', 'button-warning') : m.role === 'OWNER' ? html`<span class="muted">the owner stays</span>` : null}</td>
</tr>`);
  const add = v.canManage
    ? html`<section class="panel" aria-labelledby="add-member-title"><h2 id="add-member-title">Add a member</h2>
<form method="post" action="${base}/members" class="filters">${csrfField(viewer)}
<div class="field"><label for="member-email">Email of a Vigil user</label><input type="email" id="member-email" name="email" autocomplete="off" required></div>
<div class="field"><label for="member-role">Role</label><select id="member-role" name="role">${v.roles.map((r) => html`<option value="${r}"${r === 'MEMBER' ? html` selected` : null}>${r}</option>`)}</select></div>
<button type="submit" class="button button-primary">Add member</button>
</form>
<p class="hint">READONLY reads everything; MEMBER also acknowledges and resolves incidents and manages monitors; MANAGER also manages notifications, members and keys bound to the project.</p></section>`
    : html`<p class="hint">Adding members and changing roles needs the MANAGER role or higher and an account key with the manage_projects scope.</p>`;
  return settingsPage(v, 'members', 'Members', html`<section class="panel" aria-labelledby="members-title"><h2 id="members-title">Members and roles</h2>
<div class="table-wrap"><table>
<caption class="visually-hidden">Members of ${project.name}</caption>
<thead><tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>
</section>
${add}`);
}
