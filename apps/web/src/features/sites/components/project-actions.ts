/** Deleting a project or station, after asking (the server refuses one that still holds stations or devices). */
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/form-errors';
import { useGroupId } from '../api/group';
import { useDeleteProject } from '../api/projects-api';

/** Asks, deletes and says so (or why not); `after` runs once it is deleted. */
export function useConfirmProjectDelete() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const g = useGroupId();
  const remove = useDeleteProject(g);
  return (project: { Id: number; Name: string }, after?: () => void) => {
    modal.confirm({
      title: t('sites.actions.deleteNamed', { name: project.Name }),
      content: t('sites.deleteHint'),
      okText: t('sites.actions.delete'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const res = await remove.mutateAsync(project.Id);
          void message.success(res.message || t('sites.actions.deleted'));
          after?.();
        } catch (error) {
          void message.error(errorMessage(error));
        }
      },
    });
  };
}
