/** The resource table of the workbench: add, edit, delete and reorder only for users who may manage types. */
import { ResourceTable, type ResourceTableProps } from '../../../components/resource-table/resource-table';
import type { RowBase } from '../../../components/resource-table/resource-types';
import { useMayOperate } from '../../../lib/operates';

export function TypeTable<Row extends RowBase>(props: ResourceTableProps<Row>) {
  const mayManage = useMayOperate('system.manage');
  return <ResourceTable {...props} readOnly={props.readOnly === true || !mayManage} />;
}
