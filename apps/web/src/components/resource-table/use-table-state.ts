/**
 * A list's state: page, page size, search, sort and filters. Kept in the address's query string
 * when `syncUrl` is set (a reload or Back shows the same page of the list), else in memory.
 */
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';

export interface SortState {
  key: string;
  order: 'asc' | 'desc';
}

export interface TableState {
  page: number;
  pageSize: number;
  search: string;
  sort: SortState | undefined;
  filters: Record<string, string | undefined>;
}

export interface TableStateOptions {
  syncUrl: boolean;
  pageSize: number;
  defaultSort: SortState | undefined;
  filterParams: string[];
}

const PAGE_SIZES = [10, 20, 50, 100];

function positive(raw: string | null, fallback: number): number {
  const value = Number(raw);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

function fromSearch(params: URLSearchParams, options: TableStateOptions): TableState {
  const sortKey = params.get('sort');
  const order = params.get('order');
  const filters: Record<string, string | undefined> = {};
  for (const name of options.filterParams) filters[name] = params.get(name) ?? undefined;
  const size = positive(params.get('size'), options.pageSize);
  return {
    page: positive(params.get('page'), 1),
    pageSize: PAGE_SIZES.includes(size) ? size : options.pageSize,
    search: params.get('q') ?? '',
    sort: sortKey ? { key: sortKey, order: order === 'desc' ? 'desc' : 'asc' } : options.defaultSort,
    filters,
  };
}

function toSearch(state: TableState, options: TableStateOptions, base: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(base);
  const set = (name: string, value: string | undefined) => {
    if (value === undefined || value === '') next.delete(name);
    else next.set(name, value);
  };
  set('page', state.page > 1 ? String(state.page) : undefined);
  set('size', state.pageSize !== options.pageSize ? String(state.pageSize) : undefined);
  set('q', state.search || undefined);
  const isDefaultSort = state.sort?.key === options.defaultSort?.key && state.sort?.order === options.defaultSort?.order;
  set('sort', isDefaultSort ? undefined : state.sort?.key);
  set('order', isDefaultSort ? undefined : state.sort?.order);
  for (const name of options.filterParams) set(name, state.filters[name]);
  return next;
}

export function useTableState(options: TableStateOptions) {
  const [searchParams, setSearchParams] = useSearchParams();
  const [local, setLocal] = useState<TableState>(() => fromSearch(new URLSearchParams(), options));
  const { syncUrl } = options;
  const filterKey = options.filterParams.join(',');
  const urlState = useMemo(
    () => fromSearch(searchParams, options),
    // options are plain values; their parts that matter are listed
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [searchParams, options.pageSize, options.defaultSort?.key, options.defaultSort?.order, filterKey],
  );
  const state = syncUrl ? urlState : local;

  const update = useCallback(
    (change: (previous: TableState) => TableState) => {
      if (syncUrl) {
        setSearchParams((previous) => toSearch(change(fromSearch(previous, options)), options, previous), { replace: true });
      } else {
        setLocal(change);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [syncUrl, setSearchParams, options.pageSize, options.defaultSort?.key, options.defaultSort?.order, filterKey],
  );

  const actions = useMemo(
    () => ({
      setPage: (page: number, pageSize?: number) => {
        update((s) => ({
          ...s,
          page: pageSize !== undefined && pageSize !== s.pageSize ? 1 : page,
          pageSize: pageSize ?? s.pageSize,
        }));
      },
      setSearch: (search: string) => {
        update((s) => (s.search === search ? s : { ...s, search, page: 1 }));
      },
      setSort: (sort: SortState | undefined) => {
        update((s) => ({ ...s, sort, page: 1 }));
      },
      setFilter: (param: string, value: string | undefined) => {
        update((s) => ({ ...s, filters: { ...s.filters, [param]: value }, page: 1 }));
      },
      /** Several filters at once (a date range's two days). */
      setFilters: (changes: Record<string, string | undefined>) => {
        update((s) => ({ ...s, filters: { ...s.filters, ...changes }, page: 1 }));
      },
    }),
    [update],
  );

  return { state, ...actions, pageSizes: PAGE_SIZES };
}
