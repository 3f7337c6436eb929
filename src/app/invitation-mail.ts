import nodemailer from 'nodemailer';
import type { SmtpSettings } from '../notifications/senders.js';

const MAIL_TIMEOUT_MS = 10_000;

export interface InvitationLetter {
  to: string;
  projectName: string;
  invitedBy: string;
  role: string;
  url: string;
  expiresAt: string;
}

/**
 * Mails an invitation's link through the operator's SMTP server (VIGIL_SMTP_*), as email channels
 * are sent. One attempt, while the inviter waits: the page that answers shows the link either way
 * and says whether the mail went, so a failure is for the inviter to see, not to retry unseen.
 */
export async function mailInvitation(smtp: SmtpSettings, letter: InvitationLetter): Promise<{ sent: true } | { sent: false; error: string }> {
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
    connectionTimeout: MAIL_TIMEOUT_MS,
    greetingTimeout: MAIL_TIMEOUT_MS,
    socketTimeout: MAIL_TIMEOUT_MS,
  });
  try {
    await transport.sendMail({
      from: smtp.from,
      to: letter.to,
      subject: `${letter.invitedBy} invited you to ${letter.projectName} on Vigil`,
      text: [
        `${letter.invitedBy} invited you to join the project ${letter.projectName} on Vigil as ${letter.role}.`,
        '',
        `Accept the invitation: ${letter.url}`,
        '',
        `The link works once and expires ${letter.expiresAt.replace('T', ' ').slice(0, 16)} UTC. If you did not expect it, ignore this message.`,
        '',
      ].join('\n'),
    });
    return { sent: true };
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode;
    return { sent: false, error: `the SMTP server ${smtp.host} refused the message${code ? ` (${code})` : ''}` };
  } finally {
    transport.close();
  }
}
