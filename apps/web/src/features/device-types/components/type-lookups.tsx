/**
 * Lookups the workbench tabs share: a type's parts as choices (its modules, classes, controls,
 * data points) and the library's data points by id, from the same queries as the tables.
 */
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import type { DataDefineDto } from '@sluice/shared/data-define.schema';
import type { Resource } from '../../../components/resource-table/resource';
import { useResourceContext } from '../../../components/resource-table/use-resource-context';
import { useDataDefineLibrary } from '../../../lib/common-params';

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

/** The library's data points by id. */
export function useLibraryById(): Map<number, DataDefineDto> {
  const { data } = useDataDefineLibrary();
  return useMemo(() => new Map((data ?? []).map((d) => [d.Id, d])), [data]);
}

/** A data point shown by its key and name. */
export function DataPointCell({
  define,
  fallback,
}: {
  define: Pick<DataDefineDto, 'DataKey' | 'DataName'> | undefined;
  fallback?: string | number;
}) {
  if (!define) return <Typography.Text type="secondary">{fallback === undefined ? '—' : `#${String(fallback)}`}</Typography.Text>;
  return (
    <span>
      <Typography.Text code>{define.DataKey}</Typography.Text> {define.DataName}
    </span>
  );
}
