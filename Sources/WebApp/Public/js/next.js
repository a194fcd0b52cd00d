// Where sign-in and sign-up return to: the `next` of the page's address, only when it is a path of this site.
// Anything that could leave it (`//evil.example`, `https://evil.example`, `/\evil.example`, `/.//evil.example`,
// a tab or newline that the URL parser drops) is refused; so are the sign-in pages themselves.

const CONTROL_OR_BACKSLASH = /[\\\u0000-\u001f\u007f]/;
const SIGN_IN_PAGES = new Set(['/login', '/signup']);

/** A same-site path (with its query and hash) to go to after signing in, or null. */
export function safeNext(raw, origin) {
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.startsWith('//')) return null;
  if (CONTROL_OR_BACKSLASH.test(raw)) return null;
  let url;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || SIGN_IN_PAGES.has(url.pathname)) return null;
  // Dot segments can normalise to a path that starts with `//` (`/.//evil.example`), which a browser reads as
  // another host.
  if (url.pathname.startsWith('//')) return null;
  return url.pathname + url.search + url.hash;
}

/**
 * `/login` or `/signup` with a `next` naming `here` (a path, query and hash); null on the sign-in pages and
 * the profile page, whose links are left as they are.
 */
export function withNext(page, here) {
  const path = here.split(/[?#]/)[0];
  if (SIGN_IN_PAGES.has(path) || path === '/account') return null;
  return `${page}?${new URLSearchParams({ next: here })}`;
}
