import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ForbiddenResult } from '../../components/forbidden-result';
import { PlaceholderPage } from '../../components/placeholder-page';
import { myInfoQueryOptions } from '../../lib/current-user';
import type { AppRouteDef } from '../routes';

/**
 * A signed-in route: the administrator check, then the built page (children) or, for a screen
 * not built yet, the generic placeholder.
 */
export function RoutePage({ def, children }: { def: AppRouteDef; children?: ReactNode }) {
  const { data: user } = useQuery(myInfoQueryOptions());
  if (def.meta.adminOnly && !user?.IsAdmin) return <ForbiddenResult />;
  return children ?? <PlaceholderPage titleKey={def.meta.titleKey} />;
}
