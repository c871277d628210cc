/**
 * How a list's cells show values, for the generic resource table and the hand-built tables
 * alike: full dates and times on one line (spec §9's formats, in the browser's time zone and the
 * UI language), numbers with their units, and long text cut with an ellipsis whose whole text a
 * tooltip (and the accessible name) gives back.
 */
import type { ReactNode } from 'react';
import { Tooltip, Typography } from 'antd';
import { dayjs, formatDate, formatDateTime } from '../lib/dates';

/** A column holding 'YYYY-MM-DD HH:mm:ss' whole (cell padding included). */
export const DATE_TIME_WIDTH = 180;
/** A column holding 'YYYY-MM-DD'. */
export const DATE_WIDTH = 120;
/** A column of long text cut with an ellipsis, when it names no width of its own. */
export const ELLIPSIS_WIDTH = 240;

/** The sign of a missing value. */
export function EmptyCell() {
  return (
    <Typography.Text type="secondary" aria-hidden>
      —
    </Typography.Text>
  );
}

type DateInput = number | string | Date | null | undefined;

/** A moment as a full date and time (or a date) on one line, in a <time> element. */
export function DateTimeText({ value, date = false }: { value: DateInput; date?: boolean }) {
  if (value === null || value === undefined || value === '') return <EmptyCell />;
  const moment = dayjs(value);
  if (!moment.isValid()) return <EmptyCell />;
  return (
    <time dateTime={moment.toISOString()} style={{ whiteSpace: 'nowrap' }}>
      {date ? formatDate(value) : formatDateTime(value)}
    </time>
  );
}

/** A number with its unit, kept together on one line ('12.5 m³/h'); a missing value shows —. */
export function ValueWithUnit({ value, unit }: { value: ReactNode; unit?: string | null }) {
  if (value === null || value === undefined || value === '') return <EmptyCell />;
  const trimmed = unit?.trim();
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {value}
      {trimmed ? ` ${trimmed}` : ''}
    </span>
  );
}

/** Text cut with an ellipsis in a fixed-width cell; the tooltip shows it whole (screen readers read it whole anyway). */
export function EllipsisText({ children, title }: { children: ReactNode; title?: ReactNode }) {
  return (
    <Tooltip title={title ?? children} placement="topLeft">
      <span style={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '100%' }}>
        {children}
      </span>
    </Tooltip>
  );
}
