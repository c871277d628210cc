/**
 * The console's cookies (spec §3 Session cookies, §9 cookie expiry 1 day) and the language cookie.
 * The session token is in the `token` cookie, which the server sets HttpOnly: scripts, this
 * console's included, can neither read nor write it. The console keeps only `isLogin` and
 * `account` to know that someone is signed in, and who.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export const SESSION_COOKIE_DAYS = 1;
export const LANGUAGE_COOKIE_DAYS = 365;

export type CookieName = 'isLogin' | 'account' | 'token' | 'videoToken' | 'lang';
// `token` is listed to drop a readable one an older console wrote; the server's HttpOnly one is
// out of reach here and goes with sign-out (or a 401).
const SESSION_COOKIES: readonly CookieName[] = ['isLogin', 'account', 'token', 'videoToken'];

export function readCookie(name: CookieName): string | undefined {
  for (const part of document.cookie.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === name) {
      const raw = part.slice(separator + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}

export function writeCookie(name: CookieName, value: string, days: number): void {
  const expires = new Date(Date.now() + days * DAY_MS).toUTCString();
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; expires=${expires}; path=/; SameSite=Lax${secure}`;
}

export function removeCookie(name: CookieName): void {
  document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; SameSite=Lax`;
}

export function setSessionCookies(session: { account: string }): void {
  writeCookie('isLogin', '1', SESSION_COOKIE_DAYS);
  writeCookie('account', session.account, SESSION_COOKIE_DAYS);
}

export function clearSessionCookies(): void {
  for (const name of SESSION_COOKIES) removeCookie(name);
}

/** Whether someone signed in on this browser (the session itself may have expired: the server says so with a 401). */
export function hasSession(): boolean {
  return readCookie('isLogin') === '1';
}
