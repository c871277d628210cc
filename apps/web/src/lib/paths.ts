/** Fixed paths the console links to from several places. */
export const LOGIN_PATH = '/login';
export const REGISTER_PATH = '/register';
export const HOME_PATH = '/common/home';
export const USER_INFO_PATH = '/common/user/info';
export const NOT_FOUND_PATH = '/notFount';

/** A safe place to return to after sign-in: a path inside the console, never /login itself. */
export function safeRedirect(target: string | null | undefined): string {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return HOME_PATH;
  if (target === '/' || target.toLowerCase().startsWith(LOGIN_PATH)) return HOME_PATH;
  return target;
}

/** The home page with a project, station or device selected (its list panel node and details). */
export const homePath = (kind: 'client' | 'project' | 'station' | 'device', id: string | number) =>
  `${HOME_PATH}/${kind}/${String(id)}`;
