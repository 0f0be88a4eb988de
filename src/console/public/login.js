// The login form's one-time nonce (issue 32, must-have 5): made here, kept in this tab's storage of
// the console's origin (which no server on another port can read or write) and sent with the form.
// After the login, api.js takes the session key from the fragment only when the console confirms
// this nonce belongs to that session, so a link carrying someone else's session key is refused.
const NONCE_ITEM = 'console-login-nonce';

function newNonce() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const nonce = newNonce();
window.sessionStorage.setItem(NONCE_ITEM, nonce);
for (const field of document.querySelectorAll('input[name="login_nonce"]')) field.value = nonce;
