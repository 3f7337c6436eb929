import type { InvitationDocument } from '../../../projections/invitations.js';
import type { Role } from '../../domain/access/roles.js';
import { standingOfDocument } from '../../queries/invitations.js';
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
  /** The roles the viewer may give: none above their own. */
  roles: readonly Exclude<Role, 'OWNER'>[];
  /** Invitations waiting for an answer (managers only), with who sent each. */
  invitations: { invitation: InvitationDocument; invitedBy: string }[];
  now: Date;
  /** What the invite form was sent with, when it comes back with an error. */
  invite?: { email: string; role: string; error: string } | null;
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
  const invitationsPath = `${base}/invitations`;
  const invite = v.invite ?? null;
  const pending = v.invitations.length === 0 ? html`<p class="empty">No invitations waiting.</p>` : html`<div class="table-wrap"><table class="invitations">
<caption class="visually-hidden">Invitations waiting for an answer</caption>
<thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Invited by</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${v.invitations.map(({ invitation: i, invitedBy }) => {
  const expired = standingOfDocument(i, v.now) === 'expired';
  return html`<tr data-invitation-id="${i.id}">
<td class="wrap-anywhere"><strong>${i.email}</strong></td>
<td><span class="role role-${i.role.toLowerCase()}">${i.role}</span></td>
<td class="wrap-anywhere">${invitedBy}</td>
<td class="nowrap">${expired ? html`<span class="status status-waiting">Expired</span> ` : null}${utc(i.expires_at)}</td>
<td class="row-actions">${postButton(viewer, `${invitationsPath}/${i.id}/revoke`, 'Revoke', 'button-warning')}</td>
</tr>`;
})}</tbody></table></div>`;
  const add = v.canManage
    ? html`<section class="panel" aria-labelledby="invite-title"><h2 id="invite-title">Invite someone</h2>
${invite ? html`<div class="error-summary" role="alert" aria-labelledby="invite-error-title"><h2 id="invite-error-title">There is a problem</h2><ul><li><a href="#invite-${/^role/.test(invite.error) ? 'role' : 'email'}">${invite.error}</a></li></ul></div>` : null}
<form method="post" action="${invitationsPath}" class="filters" novalidate>${csrfField(viewer)}
<div class="field"><label for="invite-email">Email address</label><input type="email" id="invite-email" name="email" autocomplete="off" spellcheck="false" value="${invite?.email ?? ''}" required${invite && !/^role/.test(invite.error) ? html` aria-invalid="true"` : null}></div>
<div class="field"><label for="invite-role">Role</label><select id="invite-role" name="role">${v.roles.map((r) => html`<option value="${r}"${r === (invite?.role ?? 'MEMBER') ? html` selected` : null}>${r}</option>`)}</select></div>
<button type="submit" class="button button-primary">Invite</button>
</form>
<p class="hint">Vigil makes a link that works once, for 7 days, for this address only: whoever opens it signs in, or creates an account with this address, and joins with the role. READONLY reads everything; MEMBER also acknowledges and resolves incidents and manages monitors; MANAGER also manages notifications, members and keys bound to the project. You can give no role above your own.</p>
<h3>Waiting for an answer</h3>
${pending}</section>`
    : html`<p class="hint">Inviting members and changing roles needs the MANAGER role or higher.</p>`;
  return settingsPage(v, 'members', 'Members', html`<section class="panel" aria-labelledby="members-title"><h2 id="members-title">Members and roles</h2>
<div class="table-wrap"><table>
<caption class="visually-hidden">Members of ${project.name}</caption>
<thead><tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>
</section>
${add}`);
}

/** The new invitation's link, shown this once: the answer to the POST that made it. */
export function invitationIssuedPage(v: SettingsFrame & { email: string; role: string; url: string; expiresAt: string; mail: { sent: boolean; error?: string } | null }): Html {
  const base = `/projects/${v.project.id}/settings`;
  const mail = v.mail === null
    ? html`<p>Send it to ${v.email} yourself (this server has no SMTP configured to mail it).</p>`
    : v.mail.sent
      ? html`<p>It has been mailed to ${v.email}. You can also send it yourself.</p>`
      : html`<p class="warning-text">It could not be mailed: ${v.mail.error ?? 'the SMTP server refused it'}. Send it to ${v.email} yourself.</p>`;
  return settingsPage({ ...v, notice: `Invitation for ${v.email} created.` }, 'members', 'Invitation created', html`<section class="panel narrow-panel once" aria-labelledby="invitation-title">
<h2 id="invitation-title">Invitation link for ${v.email}</h2>
<p><strong>Copy the link now: it is shown this once.</strong> Vigil keeps only a hash of it. It works once, for ${v.email} only, as ${v.role}, until ${utc(v.expiresAt)}.</p>
${mail}
<div class="copy-row"><code id="invitation-link" class="wrap">${v.url}</code><button type="button" class="button button-secondary button-small" data-copy="invitation-link" hidden>Copy</button></div>
<p><a class="button button-primary" href="${base}/members">Done</a></p>
</section>`);
}
