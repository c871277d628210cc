/** Adds or edits a project (under an optional client) or a station (under a project). */
import { useMemo } from 'react';
import { Form, Input, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { anyText } from '@sluice/shared/rules';
import { PROJECT_TYPE } from '@sluice/shared/project.schema';
import { zodFieldRules } from '../../../lib/zod-form';
import { regionsQueryOptions } from '../../../lib/areas';
import { useGroupId } from '../../../lib/group';
import { useSaveProject, type ProjectDto, type SiteKind } from '../api/projects-api';
import { useAllProjects } from '../../../lib/sites';
import { FormDialog } from '../../../components/form-dialog';
import { LocationFields } from '../../../components/sites/location-fields';

interface Values {
  Name: string;
  ParentId?: number;
  RegionId?: number;
  AreaId?: string | null;
  Address?: string;
  Position?: string;
}

const FIELDS = ['Name', 'ParentId', 'RegionId', 'AreaId', 'Address', 'Position'];

export function ProjectFormDialog({
  kind,
  open,
  editing,
  parentId,
  onClose,
}: {
  kind: SiteKind;
  open: boolean;
  /** the node being edited, or undefined to add one */
  editing?: ProjectDto;
  /** the parent proposed for a new station */
  parentId?: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const g = useGroupId();
  const save = useSaveProject(g);
  // A station's parent is a project; a project's is an optional client.
  const parents = useAllProjects(g, {
    ProjectType: kind === 'station' ? PROJECT_TYPE.project : PROJECT_TYPE.client,
  });
  const regions = useQuery(regionsQueryOptions(g));
  const parentOptions = useMemo(() => (parents.data ?? []).map((p) => ({ value: p.Id, label: p.Name })), [parents.data]);

  const values = useMemo<Partial<Values>>(
    () =>
      editing
        ? {
            Name: editing.Name,
            ParentId: editing.ParentId || undefined,
            RegionId: editing.RegionId ?? undefined,
            AreaId: editing.AreaId,
            Address: editing.Address,
            Position: editing.Position,
          }
        : { ParentId: parentId },
    [editing, parentId],
  );

  const title = editing
    ? t(kind === 'station' ? 'sites.form.editStation' : 'sites.form.editProject')
    : t(kind === 'station' ? 'sites.form.newStation' : 'sites.form.newProject');

  const submit = async (submitted: Values) => {
    const body = {
      Name: submitted.Name,
      ParentId: submitted.ParentId ?? (editing ? null : undefined),
      RegionId: submitted.RegionId ?? (editing ? null : undefined),
      AreaId: submitted.AreaId ?? (editing ? null : undefined),
      Address: submitted.Address ?? '',
      Position: submitted.Position?.trim() ?? '',
    };
    const res = editing
      ? await save.mutateAsync({
          ...body,
          Id: editing.Id,
          ParentId: editing.ProjectKind === 'station' ? (submitted.ParentId ?? editing.ParentId) : body.ParentId,
        })
      : await save.mutateAsync({
          ...body,
          ProjectType: kind === 'station' ? PROJECT_TYPE.station : PROJECT_TYPE.project,
        });
    return res.message;
  };

  return (
    <FormDialog<Values>
      title={title}
      open={open}
      onClose={onClose}
      name={`site-form-${kind}`}
      values={values}
      fields={FIELDS}
      saving={save.isPending}
      onSubmit={submit}
    >
      <Form.Item name="Name" label={t('sites.fields.name')} rules={zodFieldRules(anyText(1, 64))}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="ParentId"
        label={kind === 'station' ? t('sites.fields.project') : t('sites.fields.client')}
        rules={kind === 'station' ? [{ required: true, message: t('rule.required') }] : []}
      >
        <Select allowClear showSearch={{ optionFilterProp: 'label' }} options={parentOptions} loading={parents.isPending} />
      </Form.Item>
      <LocationFields />
      <Form.Item name="RegionId" label={t('sites.fields.region')}>
        <Select
          allowClear
          options={(regions.data ?? []).map((r) => ({
            value: r.Id,
            label: r.Name,
          }))}
          loading={regions.isPending}
        />
      </Form.Item>
    </FormDialog>
  );
}
