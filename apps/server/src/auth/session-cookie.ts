/**
 * The console's session: the token in an HttpOnly, SameSite=Strict cookie set by the server
 * (Secure on https), which scripts cannot read. Requests it authenticates must come from the
 * console's own origin: SameSite keeps other sites' requests from carrying it, and the origin
 * check below also stops sibling sites of the same domain (which SameSite counts as "same site")
 * and browsers without SameSite. Other clients send `Authorization: Bearer`, which no other
 * site can make a browser send.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'token';

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: number): void {
  void reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    path: '/',
    expires: new Date(expiresAt),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https', path: '/' });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a request authenticated by the cookie may go on. Another site's request never does
 * (Sec-Fetch-Site cross-site or same-site). A write must show that it comes from the console's
 * own origin: Sec-Fetch-Site same-origin, or, from a browser without it, an Origin naming this
 * host; a write with neither is refused. A WebSocket upgrade counts as a write.
 */
export function fromOwnOrigin(method: string, headers: IncomingHttpHeaders, host: string | undefined): boolean {
  const site = headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return false;
  if (SAFE_METHODS.has(method.toUpperCase())) return true;
  if (site === 'same-origin') return true;
  if (site !== undefined) return false;
  const origin = headers.origin;
  if (!origin || !host) return false;
  try {
    const from = new URL(origin);
    // Parsed alike, so that a default port (":80" in Host, none in Origin) compares equal.
    return from.host === new URL(`${from.protocol}//${host}`).host;
  } catch {
    return false;
  }
}
