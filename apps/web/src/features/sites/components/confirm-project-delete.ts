/**
 * Deleting a project or station after asking. One that still holds stations, projects or devices
 * is not offered as if it would work: the console says what it still holds and how to go on
 * (the server refuses it too, naming the same counts).
 */
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useConfirmDelete } from '../../../components/sites/confirm-delete';
import { useGroupId } from '../../../lib/group';
import { useDeleteProject, type ProjectDto } from '../api/projects-api';

export function useConfirmProjectDelete() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const g = useGroupId();
  const remove = useDeleteProject(g);
  const confirmDelete = useConfirmDelete();
  return (project: Pick<ProjectDto, 'Id' | 'Name' | 'SitesNum' | 'ProjectNum' | 'DeviceNum'>, after?: () => void) => {
    const nodes = project.SitesNum + project.ProjectNum;
    if (nodes > 0 || project.DeviceNum > 0) {
      void modal.info({
        title: t('sites.cannotDelete', { name: project.Name }),
        content: t('sites.cannotDeleteHint', { stations: nodes, devices: project.DeviceNum }),
        okText: t('sites.understood'),
      });
      return;
    }
    confirmDelete({
      title: t('sites.actions.deleteNamed', { name: project.Name }),
      content: t('sites.deleteHint'),
      call: () => remove.mutateAsync(project.Id),
      after,
    });
  };
}
