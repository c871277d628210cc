/**
 * Lookups the workbench tabs share: a type's parts as choices (its modules, classes, controls,
 * data points), from the same queries as the tables; the library's data points by id from
 * components/data-value.
 */
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Resource } from '../../../components/resource-table/resource';
import { useResourceContext } from '../../../components/resource-table/use-resource-context';

const NO_PARAMS = {};

/** All rows of a part of a type (for pickers); empty while loading. Same query as its table. */
export function useTypePart<Row extends { Id: number }>(resource: Resource<Row>, typeId: number) {
  const ctx = useResourceContext();
  const typeCtx = useMemo(() => ({ ...ctx, path: { typeId } }), [ctx, typeId]);
  const query = useQuery({ ...resource.listQueryOptions(typeCtx, NO_PARAMS), enabled: ctx.groupId > 0 });
  return query.data?.rows ?? [];
}

/** All rows of a part of a template (its panels, accessories, profiles). Same query as its table. */
export function useTemplatePart<Row extends { Id: number }>(resource: Resource<Row>, tempId: number) {
  const ctx = useResourceContext();
  const params = useMemo(() => ({ TempId: tempId }), [tempId]);
  const query = useQuery({ ...resource.listQueryOptions(ctx, params), enabled: ctx.groupId > 0 });
  return query.data?.rows ?? [];
}

export { DataPointCell, useLibraryById } from '../../../components/data-value/data-point-cell';
