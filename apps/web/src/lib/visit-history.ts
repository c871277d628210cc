/**
 * The visited-path history (spec §2, §3 "locally stored: visited-path history"): the last pages
 * of this session, so a page's Back button returns to the page it was opened from, with that
 * page's list state (its query string) intact.
 */
const HISTORY_KEY = 'sluice.history';
const MAX_ENTRIES = 30;

export function readHistory(): string[] {
  try {
    const raw = sessionStorage.getItem(HISTORY_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

function pathnameOf(path: string): string {
  return path.split(/[?#]/, 1)[0] ?? path;
}

/** Records a visit; a new query string on the same page replaces that page's entry. */
export function recordVisit(path: string): void {
  const history = readHistory();
  const last = history.at(-1);
  if (last !== undefined && pathnameOf(last) === pathnameOf(path)) history.pop();
  history.push(path);
  try {
    sessionStorage.setItem(HISTORY_KEY, JSON.stringify(history.slice(-MAX_ENTRIES)));
  } catch {
    // storage blocked: Back falls back to the parent page
  }
}

/**
 * Where Back leads from the current page: the last visited page before it that `accept`s
 * (say, the parent list), else the fallback.
 */
export function backTarget(currentPath: string, fallback: string, accept: (path: string) => boolean = () => true): string {
  const current = pathnameOf(currentPath);
  const history = readHistory();
  for (let i = history.length - 1; i >= 0; i--) {
    const entry = history[i];
    if (entry === undefined || pathnameOf(entry) === current) continue;
    return accept(entry) ? entry : fallback;
  }
  return fallback;
}
