/**
 * /sys/areaset: the group's regions on the resource table; each region's shape (circle,
 * rectangle or polygon) is drawn on the map in its add and edit dialogs.
 */
import { useMemo } from 'react';
import { Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { regionShape, type RegionShape } from '@sluice/shared/geo.schema';
import { addRegionRequest, updateRegionRequest } from '@sluice/shared/region.schema';
import { RegionEditor, shapeCenter } from '../../../components/map/region-editor';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { useMapConfig, type MapConfig } from '../../../lib/client-config';
import { regionsQueryOptions, type RegionDto } from '../../../lib/areas';
import { regionsResource } from '../api/regions-api';
import { useGroupId } from '../../../lib/group';

function readShape(text: unknown): RegionShape | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  try {
    const parsed = regionShape.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function ShapeTag({ text }: { text: string }) {
  const { t } = useTranslation();
  const shape = readShape(text);
  return shape ? <Tag color="green">{t(`areaSet.shapes.${shape.type}`)}</Tag> : <Tag>{t('areaSet.noShapeShort')}</Tag>;
}

/** The shape field: the region's shape (JSON text, as the server keeps it) drawn on the map. */
function RegionShapeInput({
  config,
  value,
  onChange,
}: {
  config: MapConfig | undefined;
  value?: string;
  onChange?: (value: string) => void;
}) {
  const { t } = useTranslation();
  const shape = readShape(value);
  return (
    <div>
      <RegionEditor
        config={config}
        shape={shape}
        onChange={(next) => {
          onChange?.(next ? JSON.stringify(next) : '');
        }}
      />
      <Typography.Paragraph style={{ marginTop: 8, marginBottom: 0 }} aria-live="polite">
        {shape ? t('areaSet.shapeIs', { shape: t(`areaSet.shapes.${shape.type}`) }) : t('areaSet.noShape')}
      </Typography.Paragraph>
    </div>
  );
}

export function AreaSetPage() {
  const { t } = useTranslation();
  const g = useGroupId();
  const { config: mapConfig } = useMapConfig();
  // Every region, for the parent column and the parent choices (the table's list may be searched).
  const { data: regions } = useQuery(regionsQueryOptions(g));

  const config = useMemo<ResourceTableConfig<RegionDto>>(() => {
    const names = new Map((regions ?? []).map((r) => [r.Id, r.Name]));
    return {
      resource: regionsResource,
      rowName: (row) => row.Name,
      search: { placeholder: 'areaSet.search' },
      addLabel: 'areaSet.new',
      columns: [
        { key: 'Name', title: 'areaSet.name', sortKey: 'Name' },
        { key: 'RegionCode', title: 'areaSet.code', sortKey: 'RegionCode' },
        { key: 'parent', title: 'areaSet.parent', render: (row) => names.get(row.ParentId) ?? '—' },
        { key: 'shape', title: 'areaSet.shape', render: (row) => <ShapeTag text={row.Radius} /> },
        { key: 'Point', title: 'areaSet.point' },
      ],
      form: {
        createSchema: addRegionRequest,
        updateSchema: updateRegionRequest,
        createTitle: 'areaSet.new',
        editTitle: 'areaSet.edit',
        width: 900,
        fields: [
          { name: 'Name', label: 'areaSet.name', kind: 'text' },
          { name: 'RegionCode', label: 'areaSet.code', kind: 'text' },
          {
            name: 'ParentId',
            label: 'areaSet.parent',
            kind: 'select',
            options: (regions ?? []).map((r) => ({ value: r.Id, text: r.Name })),
          },
          {
            name: 'Radius',
            label: 'areaSet.shape',
            kind: 'custom',
            help: 'areaSet.drawHint',
            render: () => <RegionShapeInput config={mapConfig} />,
          },
        ],
        // A region cannot be its own parent.
        adjustFields: (fields, _mode, row) =>
          fields.map((field) =>
            field.name === 'ParentId' && row ? { ...field, options: field.options?.filter((o) => o.value !== row.Id) } : field,
          ),
        toValues: (row) => ({
          Name: row.Name,
          RegionCode: row.RegionCode,
          ParentId: row.ParentId || undefined,
          Radius: row.Radius,
        }),
        // The centre follows the shape; no parent is 0.
        toBody: (values) => {
          const shape = readShape(values.Radius);
          return {
            ...values,
            RegionCode: values.RegionCode ?? '',
            ParentId: values.ParentId ?? 0,
            Radius: shape ? JSON.stringify(shape) : '',
            Point: shape ? shapeCenter(shape) : '',
          };
        },
      },
    };
  }, [regions, mapConfig]);

  return <ResourceTable config={config} title={t('routes.areaSet')} syncUrl />;
}
