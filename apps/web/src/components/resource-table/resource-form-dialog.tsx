/**
 * The add and edit dialog of a resource: fields by kind, rules from the shared zod schema (so the
 * server's own messages, in the user's language), server field errors on their fields.
 */
import { useEffect, useMemo } from 'react';
import type { FormInstance } from 'antd';
import { App, Col, Form, Modal, Row } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ApiResponse } from '../../lib/api-client';
import { applyServerFieldErrors, errorMessage } from '../../lib/form-errors';
import { MOBILE_QUERY, useMediaQuery } from '../../lib/use-media-query';
import { objectShape } from '../../lib/zod-form';
import { ResourceFormField } from './form-field';
import type { Resource, ResourceContext } from './resource';
import type { FormMode, ResourceFormConfig, RowBase } from './resource-types';

export interface FormDialogState<Row> {
  mode: FormMode;
  row?: Row;
  /** Values to start a new record with. */
  preset?: Record<string, unknown>;
}

interface Props<Row extends RowBase> {
  resource: Resource<Row>;
  /** Names the record in the edit dialog's title ({{name}}). */
  rowName?: (row: Row) => string;
  form: ResourceFormConfig<Row>;
  ctx: ResourceContext;
  state: FormDialogState<Row> | undefined;
  onClose: () => void;
}

/**
 * The form's store outlives the dialog's content: each opening starts from its own values, not
 * from what was typed last time (a cancelled add would otherwise fill the next edit's empty
 * fields). Mounted inside the form, so it runs once the form has its initial values.
 */
function StartFromInitialValues({ form }: { form: FormInstance }) {
  useEffect(() => {
    form.resetFields();
  }, [form]);
  return null;
}

const blank = (value: unknown) => value === undefined || value === null || value === '';

function defaultValues<Row extends RowBase>(config: ResourceFormConfig<Row>, row: Row): Record<string, unknown> {
  const record = row as unknown as Record<string, unknown>;
  return Object.fromEntries(config.fields.map((field) => [field.name, record[field.name]]));
}

export function ResourceFormDialog<Row extends RowBase>({ resource, rowName, form: config, ctx, state, onClose }: Props<Row>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Record<string, unknown>>();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const twoColumns = config.columns === 2 && !mobile;
  const mode = state?.mode ?? 'create';
  const schema = mode === 'create' ? config.createSchema : config.updateSchema;
  const shape = useMemo(() => objectShape(schema), [schema]);
  const formName = `${resource.key}-${mode}`;
  const open = state !== undefined;

  // The dialog's content is created afresh on each opening, so the form starts from these.
  const initialValues = useMemo(() => {
    if (!state) return undefined;
    if (state.mode === 'edit' && state.row)
      return config.toValues ? config.toValues(state.row) : defaultValues(config, state.row);
    return { ...config.initialValues, ...state.preset };
  }, [state, config]);

  const mutation = useMutation({
    mutationFn: (body: Record<string, unknown>): Promise<ApiResponse<unknown>> =>
      mode === 'edit' && state?.row ? resource.update(ctx, state.row.Id, body, state.row) : resource.create(ctx, body),
    onSuccess: async (response) => {
      void message.success(response.message || t('resource.saved'));
      onClose();
      await queryClient.invalidateQueries({ queryKey: resource.keys.all });
    },
    onError: (error) => {
      const aliases = config.errorFields ?? {};
      const names = fields.map((field) => field.name);
      const renamed = Object.keys(aliases);
      // Errors on fields the form calls otherwise (Router → RouterPath) go to that field.
      const applied = applyServerFieldErrors(form, error, [...names, ...renamed], (field) => aliases[field] ?? field);
      if (!applied) void message.error(errorMessage(error));
    },
  });

  const fields = config.adjustFields ? config.adjustFields(config.fields, mode, state?.row) : config.fields;
  const visibleFields = (values: Record<string, unknown>) =>
    fields.filter((field) => (field.modes ?? ['create', 'edit']).includes(mode) && (!field.visible || field.visible(values)));

  const onFinish = () => {
    const values = form.getFieldsValue(true) as Record<string, unknown>;
    const shown = new Set(visibleFields(values).map((field) => field.name));
    // An emptied text input is '', which clears the field on the server. An emptied select is
    // undefined, which JSON leaves out and the server would read as "unchanged": send null.
    const kept = Object.fromEntries(
      Object.entries(values)
        .filter(([name]) => shown.has(name))
        .map(([name, value]) => [name, value === undefined && mode === 'edit' && !blank(initialValues?.[name]) ? null : value]),
    );
    mutation.mutate(config.toBody ? config.toBody(kept, mode, state?.row) : kept);
  };

  return (
    <Modal
      open={open}
      title={
        mode === 'create' ? t(config.createTitle) : t(config.editTitle, { name: state?.row && rowName ? rowName(state.row) : '' })
      }
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => {
        form.submit();
      }}
      onCancel={onClose}
      confirmLoading={mutation.isPending}
      destroyOnHidden
      width={config.width ?? (config.columns === 2 ? 760 : 560)}
      mask={{ closable: false }}
    >
      <Form form={form} name={formName} layout="vertical" initialValues={initialValues} onFinish={onFinish} scrollToFirstError>
        <Form.Item noStyle shouldUpdate>
          {() => {
            const values = form.getFieldsValue(true) as Record<string, unknown>;
            const items = visibleFields(values).map((field) => (
              <ResourceFormField
                key={field.name}
                field={field}
                mode={mode}
                formName={formName}
                schema={schema}
                shape={shape}
                values={values}
                form={form}
              />
            ));
            if (!twoColumns) return items;
            return (
              <Row gutter={16}>
                {items.map((item, index) => {
                  const field = visibleFields(values)[index];
                  return (
                    <Col key={item.key} span={field?.wide || field?.kind === 'hidden' ? 24 : 12}>
                      {item}
                    </Col>
                  );
                })}
              </Row>
            );
          }}
        </Form.Item>
        <StartFromInitialValues form={form} />
        {/* Enter in a field submits, as in any form. */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
