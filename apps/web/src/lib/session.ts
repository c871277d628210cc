/**
 * The signed-in session: cookies, the current user (GET /api/user/myinfo, kept in session
 * storage), applying the user's theme and language, and signing out.
 *
 * The query cache is reached through dynamic imports: the sign-in page (which uses this module)
 * has no queries, so its code stays free of the query library.
 */
import type { SessionDto, UserConfig, UserDto } from '@sluice/shared/account.schema';
import { api } from './api-client';
import { clearSessionCookies, hasSession, readCookie, setSessionCookies } from './cookies';
import { changeLanguage, currentLanguage, isLanguage, type Language } from './i18n';
import { applyTheme, isThemeName, type ThemeName } from './theme';

export type CurrentUser = UserDto;

const USER_STORAGE_KEY = 'sluice.user';

export const sessionKeys = {
  myInfo: ['session', 'myinfo'] as const,
};

/** Forgets every cached query and the persisted cache. */
export async function clearQueryCaches(): Promise<void> {
  const { clearAllCaches } = await import('./query-client');
  await clearAllCaches();
}

export function storeUser(user: CurrentUser): void {
  try {
    sessionStorage.setItem(USER_STORAGE_KEY, JSON.stringify(user));
  } catch {
    // storage full or blocked: the query cache still holds the user
  }
}

export function readStoredUser(): CurrentUser | undefined {
  try {
    const raw = sessionStorage.getItem(USER_STORAGE_KEY);
    return raw ? (JSON.parse(raw) as CurrentUser) : undefined;
  } catch {
    return undefined;
  }
}

export async function fetchMyInfo(): Promise<CurrentUser> {
  const { data } = await api.get<CurrentUser>('/user/myinfo');
  storeUser(data);
  return data;
}

export async function setCurrentUser(user: CurrentUser): Promise<void> {
  storeUser(user);
  const { queryClient } = await import('./query-client');
  queryClient.setQueryData(sessionKeys.myInfo, user);
}

export function isSignedIn(): boolean {
  return hasSession();
}

export function signedInAccount(): string | undefined {
  return readCookie('account');
}

/** Saves console settings on the server (PUT /api/user/config) when someone is signed in. */
export async function saveUserConfig(config: Partial<UserConfig>): Promise<void> {
  if (!hasSession()) return;
  await api.put<UserConfig>('/user/config', config);
}

/**
 * Applies the user's stored settings after sign-in or at start: the theme always comes from
 * the server; the language cookie (an explicit choice on this browser) wins over the server's
 * stored language, and is saved to the server when they differ.
 */
export async function applyUserConfig(user: CurrentUser): Promise<void> {
  const theme: ThemeName = isThemeName(user.Config.Theme) ? user.Config.Theme : 'light';
  applyTheme(theme);
  const cookieLanguage = readCookie('lang');
  const serverLanguage = user.Config.Language;
  if (!cookieLanguage && isLanguage(serverLanguage)) {
    await changeLanguage(serverLanguage);
  } else if (cookieLanguage && serverLanguage !== currentLanguage()) {
    await saveUserConfig({ Language: currentLanguage() }).catch(() => undefined);
  }
}

let configAppliedFor: string | undefined;

/** Applies the user's settings once per page load and account (at start, or after sign-in). */
export async function ensureUserConfigApplied(user: CurrentUser): Promise<void> {
  if (configAppliedFor === user.Account) return;
  configAppliedFor = user.Account;
  await applyUserConfig(user);
}

/** Sign-in: POST /api/User (which sets the session cookie), then the console's cookies, the user and the user's settings. */
export async function signIn(credentials: { Account: string; Password: string }): Promise<CurrentUser> {
  const { data: session } = await api.post<SessionDto>('/User', credentials, { skipAuthRedirect: true });
  await clearQueryCaches();
  sessionStorage.clear();
  // The server set the session cookie (HttpOnly); the answer's Token is for other clients.
  setSessionCookies({ account: session.Account });
  const user = await fetchMyInfo();
  await setCurrentUser(user);
  configAppliedFor = undefined;
  await ensureUserConfigApplied(user);
  return user;
}

/**
 * Leaves the session: optionally revokes it (GET /api/user/logout, which also clears the session
 * cookie and closes its live connections), forgets the console's cookies
 * and session storage, lets the caller move to the sign-in page, and only then drops the query
 * caches (so the pages being left do not refetch without a session).
 */
export async function leaveSession(goToLogin: () => unknown, options: { revoke: boolean }): Promise<void> {
  if (options.revoke && hasSession()) {
    try {
      await api.get<null>('/user/logout', undefined, { skipAuthRedirect: true });
    } catch {
      // already expired or unreachable: sign out locally anyway
    }
  }
  clearSessionCookies();
  sessionStorage.clear();
  await goToLogin();
  await new Promise((resolve) => setTimeout(resolve, 0));
  await clearQueryCaches();
}

export async function switchLanguage(lang: Language): Promise<void> {
  await changeLanguage(lang);
  await saveUserConfig({ Language: lang });
}

export async function switchTheme(theme: ThemeName): Promise<void> {
  applyTheme(theme);
  await saveUserConfig({ Theme: theme });
}
