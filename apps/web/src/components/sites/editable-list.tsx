/**
 * A short list of a project, station or device that users who may manage it edit in place: Add
 * opens an inline form above the list, Edit turns a row into that form, Delete asks first. Server
 * field errors land on their fields; other errors are said in a message.
 */
import { useState, type ReactNode } from 'react';
import { App, Button, Form, List, Popconfirm, Space } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { applyServerFieldErrors, errorMessage } from '../../lib/form-errors';

export interface EditableListProps<Row extends { Id: number }, Values extends object> {
  rows: readonly Row[];
  loading: boolean;
  /** Shows Add, Edit and Delete (the server refuses the calls of others anyway). */
  mayManage: boolean;
  /** The row's title, also naming it in its buttons' accessible names and the delete confirmation. */
  rowName: (row: Row) => string;
  description: (row: Row) => ReactNode;
  addLabel: string;
  emptyText: string;
  /** A new row's values; their keys are the form's fields. */
  blank: Values;
  /** The form's inputs: Form.Items named as blank's keys. */
  fields: ReactNode;
  save: (values: Values, row: Row | undefined) => Promise<unknown>;
  saving: boolean;
  remove: (row: Row) => Promise<unknown>;
}

function RowForm<Row extends { Id: number }, Values extends object>({
  row,
  onDone,
  list,
}: {
  row?: Row;
  onDone: () => void;
  list: EditableListProps<Row, Values>;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  return (
    <Form
      form={form}
      layout="inline"
      initialValues={row ?? list.blank}
      onFinish={(values) => {
        void (async () => {
          try {
            await list.save(values, row);
            void message.success(t('sites.actions.saved'));
            onDone();
          } catch (error) {
            if (!applyServerFieldErrors(form, error, Object.keys(list.blank))) void message.error(errorMessage(error));
          }
        })();
      }}
      style={{ rowGap: 8 }}
    >
      {list.fields}
      <Space>
        <Button type="primary" htmlType="submit" loading={list.saving}>
          {t('common.save')}
        </Button>
        <Button onClick={onDone}>{t('common.cancel')}</Button>
      </Space>
    </Form>
  );
}

export function EditableList<Row extends { Id: number }, Values extends object>(props: EditableListProps<Row, Values>) {
  const { rows, loading, mayManage, rowName, description, addLabel, emptyText, remove } = props;
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [editing, setEditing] = useState<Row | 'new'>();
  const done = () => {
    setEditing(undefined);
  };
  return (
    <>
      {mayManage && editing === undefined && (
        <Button
          icon={<PlusOutlined />}
          onClick={() => {
            setEditing('new');
          }}
          style={{ marginBottom: 12 }}
        >
          {addLabel}
        </Button>
      )}
      {editing === 'new' && <RowForm list={props} onDone={done} />}
      <List
        loading={loading}
        dataSource={rows}
        locale={{ emptyText }}
        renderItem={(row) =>
          editing !== 'new' && editing?.Id === row.Id ? (
            <List.Item>
              <RowForm list={props} row={row} onDone={done} />
            </List.Item>
          ) : (
            <List.Item
              actions={
                mayManage
                  ? [
                      <Button
                        key="edit"
                        type="text"
                        icon={<EditOutlined />}
                        aria-label={t('sites.actions.editNamed', { name: rowName(row) })}
                        onClick={() => {
                          setEditing(row);
                        }}
                      />,
                      <Popconfirm
                        key="remove"
                        title={t('sites.actions.deleteNamed', { name: rowName(row) })}
                        okText={t('sites.actions.delete')}
                        cancelText={t('common.cancel')}
                        onConfirm={() => {
                          void remove(row).then(
                            () => undefined,
                            (error: unknown) => void message.error(errorMessage(error)),
                          );
                        }}
                      >
                        <Button
                          type="text"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t('sites.actions.deleteNamed', { name: rowName(row) })}
                        />
                      </Popconfirm>,
                    ]
                  : []
              }
            >
              <List.Item.Meta title={rowName(row)} description={description(row)} />
            </List.Item>
          )
        }
      />
    </>
  );
}
