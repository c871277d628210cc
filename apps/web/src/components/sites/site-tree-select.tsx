import { useMemo } from 'react';
import { TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { useGroupId } from '../../lib/group';
import { useAllProjects } from '../../lib/sites';

interface Node {
  value: number;
  title: string;
  children: Node[];
}

/** Projects with their stations, to put a device in (or filter by) either. */
export function useSiteTree(): {
  tree: Node[];
  loading: boolean;
  names: Map<number, string>;
} {
  const g = useGroupId();
  const { data = [], isPending } = useAllProjects(g);
  return useMemo(() => {
    const names = new Map(data.map((p) => [p.Id, p.Name]));
    const projects = data.filter((p) => p.ProjectKind === 'project');
    const tree = projects.map((p) => ({
      value: p.Id,
      title: p.Name,
      children: data
        .filter((s) => s.ProjectKind === 'station' && s.ParentId === p.Id)
        .map((s) => ({ value: s.Id, title: s.Name, children: [] })),
    }));
    return { tree, loading: isPending, names };
  }, [data, isPending]);
}

export function SiteTreeSelect({
  value,
  onChange,
  id,
  exclude,
  placeholder,
  allowClear = false,
}: {
  value?: number | null;
  onChange?: (value: number | undefined) => void;
  id?: string;
  exclude?: number | null;
  placeholder?: string;
  allowClear?: boolean;
}) {
  const { t } = useTranslation();
  const { tree, loading } = useSiteTree();
  const data = useMemo(() => {
    const strip = (nodes: Node[]): Node[] =>
      nodes.filter((n) => n.value !== exclude).map((n) => ({ ...n, children: strip(n.children) }));
    return strip(tree);
  }, [tree, exclude]);
  return (
    <TreeSelect
      id={id}
      value={value ?? undefined}
      treeData={data}
      loading={loading}
      allowClear={allowClear}
      showSearch={{ treeNodeFilterProp: 'title' }}
      treeDefaultExpandAll
      placeholder={placeholder ?? t('sites.form.sitePlaceholder')}
      onChange={(next: number | undefined) => {
        onChange?.(next ?? undefined);
      }}
      style={{ width: '100%' }}
    />
  );
}
