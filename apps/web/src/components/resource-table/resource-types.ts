/** The configuration of a resource screen: columns, search, filters, the form and row actions. */
import type { ReactElement, ReactNode } from 'react';
import type { FormInstance, FormRule } from 'antd';
import type { ApiResponse } from '../../lib/api-client';
import type { MessageKey } from '../../lib/i18n';
import type { OperateCode } from '@sluice/shared/permissions';
import type { Resource, ResourceContext } from './resource';

export type RowBase = { Id: number };

export interface ResourceColumn<Row> {
  key: string;
  title: MessageKey;
  /** The row field shown when there is no render (default: the key). */
  field?: keyof Row & string;
  render?: (row: Row) => ReactNode;
  /** The field (epoch ms or ISO text) as a full date and time, or a date, on one line. */
  format?: 'dateTime' | 'date';
  /** The field's named choices: its value shows as the choice's label, not as the code. */
  options?: Choice[];
  /** The unit after the field's number (a fixed one, or the row's own). */
  unit?: string | ((row: Row) => string | null | undefined);
  /** The OrderBy value that sorts by this column (server-side); omit for unsortable columns. */
  sortKey?: string;
  /** Default: a date's or a date and time's for format, 240 px for ellipsis. */
  width?: number;
  /** Cut long text with an ellipsis at the column's width; a tooltip shows it whole. */
  ellipsis?: boolean;
  /**
   * A secondary column (default true): false leaves it off the narrow-screen cards (under
   * 750 px) and out of the table under 1024 px, where the side menu leaves little room.
   */
  onCards?: boolean;
}

export interface Choice {
  value: string | number | boolean;
  /** A catalog key, or `text` for data (names from the server). */
  labelKey?: MessageKey;
  text?: string;
  disabled?: boolean;
}

/** A filter of the list: a choice (the default), a text, or a date range, each the list call's query parameters. */
export type ResourceFilter = SelectFilter | TextFilter | DateRangeFilter;

interface FilterBase {
  /** The list call's query parameter (a date range's first day). */
  param: string;
  label: MessageKey;
}

export interface SelectFilter extends FilterBase {
  kind?: 'select';
  /** The option meaning "no filter". */
  allLabel: MessageKey;
  options: Choice[];
}

/** Text matched by the server as the parameter says (an account, a record's id); sent once typing pauses. */
export interface TextFilter extends FilterBase {
  kind: 'text';
  placeholder?: MessageKey;
}

/** Days from `param` to `endParam` (YYYY-MM-DD each, the last day whole). */
export interface DateRangeFilter extends FilterBase {
  kind: 'dateRange';
  endParam: string;
}

/** The query parameters a filter sets. */
export const filterParamsOf = (filter: ResourceFilter): string[] =>
  filter.kind === 'dateRange' ? [filter.param, filter.endParam] : [filter.param];

export type FieldKind =
  | 'text'
  | 'password'
  | 'textarea'
  | 'number'
  | 'switch'
  | 'select'
  | 'radio'
  | 'tree-select'
  | 'autocomplete'
  | 'dateTime'
  | 'hidden'
  | 'custom';

export interface TreeChoice {
  value: number | string;
  title: string;
  disabled?: boolean;
  children?: TreeChoice[];
}

export type FormMode = 'create' | 'edit';

/** What a 'custom' field's render gets: its input id, the dialog's mode, the current values and the form. */
export interface CustomFieldProps {
  id: string;
  mode: FormMode;
  values: Record<string, unknown>;
  form: FormInstance;
}

export interface FormFieldDef {
  name: string;
  label: MessageKey;
  kind: FieldKind;
  /** The dialogs showing it (default both). */
  modes?: FormMode[];
  /** Read-only in the edit dialog (an account name, say). */
  readOnlyInEdit?: boolean;
  options?: Choice[];
  /** A 'select' that takes several of its options (its value is an array). */
  multiple?: boolean;
  treeData?: TreeChoice[];
  /** Suggestions of an autocomplete field. */
  suggestions?: string[];
  placeholder?: MessageKey;
  help?: MessageKey;
  autoComplete?: string;
  /** Fields this one is checked against (password confirmation): re-validated when they change. */
  dependencies?: string[];
  /** Shown only when this returns true for the current values. */
  visible?: (values: Record<string, unknown>) => boolean;
  /** Rules replacing those read from the schema (fields the schema does not have). */
  rules?: FormRule[];
  min?: number;
  max?: number;
  /** Renders something beside the input (an icon preview, say). */
  addon?: (value: unknown) => ReactNode;
  /**
   * The input of a 'custom' field: one element that takes value and onChange (Form.Item hands
   * them to it), such as an editor that fits another field's value.
   */
  render?: (props: CustomFieldProps) => ReactElement;
  /** In a two-column form, takes the whole width. */
  wide?: boolean;
}

export interface ResourceFormConfig<Row> {
  /** The shared zod schemas of the create and update calls (rules and messages come from them). */
  createSchema: unknown;
  updateSchema: unknown;
  fields: FormFieldDef[];
  /** Values of a new record. */
  initialValues?: Record<string, unknown>;
  /** The edit dialog's values from a row (default: the row's fields of the same names). */
  toValues?: (row: Row) => Record<string, unknown>;
  /** The request body from the form values (default: the values as they are). */
  toBody?: (values: Record<string, unknown>, mode: FormMode, row: Row | undefined) => Record<string, unknown>;
  /** The fields of one dialog, adjusted for its record (a menu cannot be its own parent, say). */
  adjustFields?: (fields: FormFieldDef[], mode: FormMode, row: Row | undefined) => FormFieldDef[];
  /** Server error fields whose form field has another name ({ Router: 'RouterPath' }). */
  errorFields?: Record<string, string>;
  createTitle: MessageKey;
  /** May name the record: {{name}} is its rowName. */
  editTitle: MessageKey;
  width?: number;
  /** Two columns of fields (long forms; one column under 750 px). */
  columns?: 1 | 2;
}

export interface RowActionHelpers<Row> {
  edit: (row: Row) => void;
  remove: (row: Row) => void;
  /** Opens the add dialog with some values filled in (a sub-menu's parent, say). */
  create: (values?: Record<string, unknown>) => void;
}

/**
 * A call on one row that the table runs itself (restore, purge, reset a password): a button
 * before Edit and Delete, an optional confirmation, then the call, the server's message (or the
 * error) and a refresh of the list.
 */
export interface RowAction<Row> {
  key: string;
  /** The button's text. */
  label: MessageKey;
  /** The button's accessible name, with the record's {{name}} ('Restore {{name}}'). */
  namedLabel: MessageKey;
  icon?: ReactNode;
  danger?: boolean;
  /** Who sees it (the server refuses others anyway): holders of this operate (default the resource's)... */
  operate?: OperateCode;
  /** ...or administrators only (a call whose access is 'admin'). */
  adminOnly?: boolean;
  /** Shown for these rows only. */
  visible?: (row: Row) => boolean;
  /** Asked first; the texts get the record's {{name}} and confirmValues. */
  confirm?: { title: MessageKey; content?: MessageKey; okText: MessageKey };
  confirmValues?: (row: Row) => Record<string, string>;
  run: (row: Row, ctx: ResourceContext) => Promise<ApiResponse<unknown>>;
  /** Said on success when the server sends no message. */
  done: MessageKey;
}

export interface ResourceTableConfig<Row extends RowBase> {
  resource: Resource<Row>;
  columns: ResourceColumn<Row>[];
  /** Names a record in confirmations and button labels. */
  rowName: (row: Row) => string;
  /** A search box (the list call's Search); omit for none. */
  search?: { placeholder: MessageKey };
  filters?: ResourceFilter[];
  form?: ResourceFormConfig<Row>;
  addLabel?: MessageKey;
  /** Extra buttons of a row, before Edit and Delete. */
  rowActions?: (row: Row, helpers: RowActionHelpers<Row>) => ReactNode;
  /** Calls on a row that the table runs (after rowActions' buttons). */
  actions?: RowAction<Row>[];
  /** What an empty list says when nothing is searched (default: no data). */
  empty?: MessageKey;
  canEdit?: (row: Row) => boolean;
  canDelete?: (row: Row) => boolean;
  /** Rows as shown, from rows as fetched (a tree built from a flat list, say). */
  transformRows?: (rows: Row[]) => Row[];
  /** Rows carry `children` (a tree): shown with every branch open at first. */
  tree?: boolean;
  /** Content shown when a row is expanded (a module's operates, say). */
  expandedRow?: { render: (row: Row) => ReactNode; label: MessageKey };
  defaultSort?: { key: string; order: 'asc' | 'desc' };
  pageSize?: number;
  /** Rows that change on the server by themselves (a link's state): fetched again this often while shown. */
  refreshMs?: number;
  /**
   * Rows can be put in order by dragging (or with the arrow keys on a row's handle), saved by the
   * resource's reorder call; default true when the resource has one and the list is not paged.
   */
  reorder?: boolean;
}
