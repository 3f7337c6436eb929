/**
 * The passkey ceremonies, served as /console/assets/passkeys.<hash>.js after the WebAuthn library
 * (@simplewebauthn/browser's bundle, served from this server as /console/assets/webauthn.<hash>.js).
 * A form marked `data-passkey="register"` or `"authenticate"` carries the options the server made
 * (their challenge kept server side); on submit the browser runs the ceremony, the answer goes into
 * the form's `response` field and the form is sent as any other, with its CSRF token.
 */
export const PASSKEYS_JS = `
const library = window.SimpleWebAuthnBrowser;

function say(form, text) {
  const status = form.querySelector('[data-passkey-status]');
  if (status) status.textContent = text;
}

function problemOf(error) {
  if (error && error.name === 'NotAllowedError') return 'The passkey request was cancelled or timed out. Try again.';
  if (error && error.name === 'InvalidStateError') return 'This authenticator already holds a passkey for your account.';
  return 'Your browser could not use a passkey: ' + (error && error.message ? error.message : 'unknown error');
}

for (const form of document.querySelectorAll('form[data-passkey]')) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!library || !library.browserSupportsWebAuthn()) {
      say(form, 'This browser cannot use passkeys.');
      return;
    }
    const button = form.querySelector('button[type=submit]');
    if (button) button.disabled = true;
    say(form, 'Follow your browser’s prompt…');
    try {
      const optionsJSON = JSON.parse(form.dataset.passkeyOptions);
      const response = form.dataset.passkey === 'register'
        ? await library.startRegistration({ optionsJSON })
        : await library.startAuthentication({ optionsJSON });
      form.querySelector('input[name=response]').value = JSON.stringify(response);
      say(form, 'Checking…');
      form.submit();
    } catch (error) {
      say(form, problemOf(error));
      if (button) button.disabled = false;
    }
  });
}
`;
