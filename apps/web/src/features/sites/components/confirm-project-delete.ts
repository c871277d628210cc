/** Deleting a project or station after asking. */
import { useTranslation } from 'react-i18next';
import { useConfirmDelete } from '../../../components/sites/confirm-delete';
import { useGroupId } from '../../../lib/group';
import { useDeleteProject } from '../api/projects-api';

/** A project or station (the server refuses one that still holds stations or devices). */
export function useConfirmProjectDelete() {
  const { t } = useTranslation();
  const g = useGroupId();
  const remove = useDeleteProject(g);
  const confirmDelete = useConfirmDelete();
  return (project: { Id: number; Name: string }, after?: () => void) => {
    confirmDelete({
      title: t('sites.actions.deleteNamed', { name: project.Name }),
      content: t('sites.deleteHint'),
      call: () => remove.mutateAsync(project.Id),
      after,
    });
  };
}
