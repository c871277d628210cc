/**
 * Putting a list's rows in order (Sn, Rank, SequenceIn): drag a row by its handle, or focus the
 * handle and press the arrow keys. The new order is shown at once and saved with the resource's
 * bulk reorder call (each moved row's new number, counted from 1); a failure shows the server's
 * message and the saved order again. A polite live region says where the row went.
 */
import { useEffect, useMemo, useRef, useState, type DragEvent, type HTMLAttributes, type KeyboardEvent } from 'react';
import { App, Button } from 'antd';
import { HolderOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/form-errors';
import type { Resource, ResourceContext, ReorderItem } from './resource';
import type { RowBase } from './resource-types';

interface Options<Row extends RowBase> {
  resource: Resource<Row>;
  ctx: ResourceContext;
  rows: Row[];
  enabled: boolean;
  rowName: (row: Row) => string;
}

/** The new sort numbers of rows in this order: 1, 2, 3…, only for rows whose number changes. */
export function renumber(rows: RowBase[], field: string): ReorderItem[] {
  return rows.flatMap((row, index) => {
    const current = (row as unknown as Record<string, unknown>)[field];
    return current === index + 1 ? [] : [{ Id: row.Id, Sn: index + 1 }];
  });
}

function moved<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

export function useReorder<Row extends RowBase>({ resource, ctx, rows, enabled, rowName }: Options<Row>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const field = resource.reorderField;
  const active = enabled && field !== undefined;

  // The order on screen while a move is saved (ids), else the fetched order.
  const [pending, setPending] = useState<{ ids: number[]; base: string }>();
  const [dragging, setDragging] = useState<number>();
  const [announcement, setAnnouncement] = useState('');
  const focusAfterMove = useRef<number | undefined>(undefined);
  const handles = useRef(new Map<number, HTMLElement>());

  // The fetched rows with their numbers: a move shows until a refetch brings other numbers.
  const baseKey = rows
    .map((row) => `${String(row.Id)}:${String((row as unknown as Record<string, unknown>)[field ?? 'Id'])}`)
    .join(',');
  const ordered = useMemo(() => {
    if (!pending || pending.base !== baseKey) return rows;
    const byId = new Map(rows.map((row) => [row.Id, row]));
    return pending.ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [row] : [];
    });
  }, [rows, pending, baseKey]);

  const save = useMutation({
    mutationFn: (items: ReorderItem[]) => resource.reorder(ctx, items),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resource.keys.all }),
    onError: (error) => {
      setPending(undefined);
      void message.error(errorMessage(error));
    },
  });

  // Keyboard moves keep the focus on the moved row's handle.
  useEffect(() => {
    const id = focusAfterMove.current;
    if (id === undefined) return;
    focusAfterMove.current = undefined;
    handles.current.get(id)?.focus();
  }, [ordered]);

  const move = (from: number, to: number) => {
    if (!field || from === to || to < 0 || to >= ordered.length) return;
    const next = moved(ordered, from, to);
    const row = next[to];
    setPending({ ids: next.map((r) => r.Id), base: baseKey });
    if (row) setAnnouncement(t('resource.movedTo', { name: rowName(row), position: to + 1, count: next.length }));
    const items = renumber(next, field);
    if (items.length > 0) save.mutate(items);
  };

  const onHandleKey = (row: Row) => (event: KeyboardEvent) => {
    const index = ordered.findIndex((r) => r.Id === row.Id);
    const target = event.key === 'ArrowUp' ? index - 1 : event.key === 'ArrowDown' ? index + 1 : undefined;
    if (target === undefined) return;
    event.preventDefault();
    // One move at a time: the next waits until this one is saved.
    if (save.isPending) return;
    focusAfterMove.current = row.Id;
    move(index, target);
  };

  const handle = (row: Row) =>
    active ? (
      <Button
        type="text"
        size="small"
        icon={<HolderOutlined aria-hidden />}
        aria-label={t('resource.moveRow', { name: rowName(row) })}
        aria-keyshortcuts="ArrowUp ArrowDown"
        title={t('resource.moveHint')}
        style={{ cursor: 'grab' }}
        aria-disabled={save.isPending}
        ref={(element: HTMLElement | null) => {
          if (element) handles.current.set(row.Id, element);
          else handles.current.delete(row.Id);
        }}
        onKeyDown={onHandleKey(row)}
      />
    ) : null;

  /** Drag-and-drop on the table's rows. */
  const rowProps = (row: Row): HTMLAttributes<HTMLElement> =>
    active
      ? {
          draggable: !save.isPending,
          onDragStart: (event: DragEvent) => {
            setDragging(row.Id);
            event.dataTransfer.effectAllowed = 'move';
            event.dataTransfer.setData('text/plain', String(row.Id));
          },
          onDragOver: (event: DragEvent) => {
            if (dragging === undefined) return;
            event.preventDefault();
            event.dataTransfer.dropEffect = 'move';
          },
          onDrop: (event: DragEvent) => {
            event.preventDefault();
            const from = ordered.findIndex((r) => r.Id === dragging);
            const to = ordered.findIndex((r) => r.Id === row.Id);
            setDragging(undefined);
            if (from >= 0 && to >= 0) move(from, to);
          },
          onDragEnd: () => {
            setDragging(undefined);
          },
          style: dragging === row.Id ? { opacity: 0.5 } : undefined,
        }
      : {};

  const liveRegion = active ? (
    <div className="visually-hidden" aria-live="polite" role="status">
      {announcement}
    </div>
  ) : null;

  return { active, rows: ordered, handle, rowProps, liveRegion, saving: save.isPending };
}
