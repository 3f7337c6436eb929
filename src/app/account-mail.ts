import nodemailer from 'nodemailer';
import type { SmtpSettings } from '../notifications/senders.js';

/** Mails a password reset link through the operator's SMTP server (VIGIL_SMTP_*), as EMAIL channels do. */
export async function sendResetMail(smtp: SmtpSettings, to: string, link: string, timeoutMs = 10_000): Promise<void> {
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  try {
    await transport.sendMail({
      from: smtp.from,
      to,
      subject: 'Reset your Vigil password',
      text: [
        'Someone (we hope you) asked to reset the password of your Vigil account.',
        '',
        `Set a new password here: ${link}`,
        '',
        'The link works once, for an hour, and signs you out everywhere else.',
        'If you did not ask for it, ignore this message: your password stays as it is.',
        '',
      ].join('\n'),
    });
  } finally {
    transport.close();
  }
}
