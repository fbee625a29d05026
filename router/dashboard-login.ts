/**
 * The page a signup's `loginUrl` opens (`/dashboard/login?token=…`). There is no dashboard in this
 * product: the page exchanges the one-time link for a merchant session (GraphQL
 * `exchangeLoginLink`) and shows the merchant what they need next: their company id, when the
 * session ends, and how to create API keys with it. The exchange waits for a click, so a mail
 * scanner that fetches the link does not use it up.
 */
export const DASHBOARD_LOGIN_PATH = '/dashboard/login';

export function dashboardLoginPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Service platform</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;color:#1f2328}button{font:inherit;padding:.5rem 1rem}code,pre{background:#f3f4f6;border-radius:3px}code{padding:0 .25rem}pre{padding:.75rem;overflow:auto;white-space:pre-wrap;word-break:break-all}.error{color:#b42318}dt{font-weight:600}dd{margin:0 0 .75rem}</style>
</head><body>
<h1>Sign in to your business</h1>
<p id="intro">This one-time link signs you in as the owner of the business you just created.</p>
<button id="exchange" type="button">Sign in</button>
<p id="problem" class="error" hidden></p>
<section id="session" hidden>
  <h2>You are signed in</h2>
  <dl>
    <dt>Company id</dt><dd><code id="company-id"></code></dd>
    <dt>Session token expires</dt><dd><time id="expires-at"></time></dd>
  </dl>
  <h2>Create an API key</h2>
  <p>API keys (<code>svc_mcp_…</code>) are how agents, scripts and the SDK act for your business, on
  <code>/mcp</code>, <code>/graphql</code> and the merchant REST routes. Create one with this session
  (the secret is shown once, keep it safe):</p>
  <pre id="curl"></pre>
  <p>Or, with a key you already have, call the MCP tool <code>create_api_key</code> with a <code>name</code>;
  <code>list_api_keys</code> and <code>revoke_api_key</code> manage them. See the
  <a href="/docs/merchant-signup.md">signup guide</a> and the <a href="/docs">API reference</a>.</p>
</section>
<script>
const token = new URLSearchParams(location.search).get('token');
const problem = document.getElementById('problem');
const button = document.getElementById('exchange');
function fail(message) { problem.textContent = message; problem.hidden = false; }
if (!token) { button.hidden = true; fail('This page needs the sign-in link from your email or from the signup answer (it carries ?token=…).'); }
button.addEventListener('click', async () => {
  button.disabled = true;
  try {
    const res = await fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation($token: String!) { exchangeLoginLink(token: $token) { token expiresAt companyId } }', variables: { token } }) });
    const body = await res.json();
    const session = body.data && body.data.exchangeLoginLink;
    if (!session) return fail((body.errors && body.errors[0] && body.errors[0].message) || 'The link could not be used.');
    document.getElementById('company-id').textContent = session.companyId;
    const expires = document.getElementById('expires-at');
    expires.dateTime = session.expiresAt;
    expires.textContent = new Date(session.expiresAt).toLocaleString() + ' (' + session.expiresAt + ')';
    document.getElementById('curl').textContent =
      "curl -s -X POST " + location.origin + "/graphql -H 'content-type: application/json' \\\\\\n" +
      "  -H 'authorization: Bearer " + session.token + "' \\\\\\n" +
      "  -d '{\\"query\\":\\"mutation { createApiKey(input: { name: \\\\\\"My agent\\\\\\" }) { key } }\\"}'";
    button.hidden = true;
    document.getElementById('intro').hidden = true;
    document.getElementById('session').hidden = false;
  } catch (error) {
    fail('The sign-in request failed: ' + error.message);
  } finally {
    button.disabled = false;
  }
});
</script>
</body></html>`;
}
