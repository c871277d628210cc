import { useMemo } from 'react';
import { Cascader } from 'antd';
import { useTranslation } from 'react-i18next';
import { areaPath, useAreaTree, type AreaDto } from '../../lib/areas';

interface Option {
  value: string;
  label: string;
  children?: Option[];
}

function toOptions(nodes: readonly AreaDto[]): Option[] {
  return nodes.map((n) =>
    n.Children?.length
      ? {
          value: n.AreaCode,
          label: n.AreaName,
          children: toOptions(n.Children),
        }
      : { value: n.AreaCode, label: n.AreaName },
  );
}

/** Picks a province, city or county (Area/GetListArea); the value is the deepest code chosen. */
export function AreaCascader({
  value,
  onChange,
  id,
}: {
  value?: string | null;
  onChange?: (code: string | null) => void;
  id?: string;
}) {
  const { t } = useTranslation();
  const { data: tree = [], isPending } = useAreaTree();
  const options = useMemo(() => toOptions(tree), [tree]);
  const path = useMemo(() => areaPath(tree, value), [tree, value]);
  return (
    <Cascader
      id={id}
      options={options}
      value={path}
      loading={isPending}
      changeOnSelect
      showSearch={{
        filter: (input, path) => path.some((o) => o.label.includes(input)),
      }}
      placeholder={t('sites.form.areaPlaceholder')}
      onChange={(next) => {
        const last = Array.isArray(next) ? next[next.length - 1] : undefined;
        onChange?.(typeof last === 'string' ? last : null);
      }}
      style={{ width: '100%' }}
    />
  );
}
