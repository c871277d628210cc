/** A project's or station's images: the cover first; users who may manage projects upload (cropped) and delete. */
import { Tag } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PROJECT_IMAGE_LIMIT } from '@sluice/shared/project.schema';
import { useMayOperate } from '../../../lib/operates';
import { useGroupId } from '../../../lib/group';
import { projectImagesQueryOptions, uploadProjectImage, useDeleteProjectImage } from '../api/projects-api';
import { sitesKeys } from '../../../lib/sites';
import { SiteImages } from '../../../components/sites/site-images';

export function ProjectImages({ projectId, name }: { projectId: number; name: string }) {
  const { t } = useTranslation();
  const g = useGroupId();
  const mayManage = useMayOperate('project.manage');
  const client = useQueryClient();
  const { data: images = [], isPending } = useQuery(projectImagesQueryOptions(g, projectId));
  const remove = useDeleteProjectImage(g, projectId);

  return (
    <SiteImages
      name={name}
      images={images.map((image) => ({
        id: image.Id,
        url: image.url,
        alt: t('sites.images.alt', { name, n: image.Sn + 1 }),
        tag:
          image.Sn === 0 ? (
            <Tag color="green">{t('sites.images.cover')}</Tag>
          ) : (
            <Tag>{t('sites.images.rank', { n: image.Sn })}</Tag>
          ),
        deleteLabel: t('sites.images.delete'),
      }))}
      loading={isPending}
      mayManage={mayManage}
      width={200}
      height={80}
      remove={(id) => remove.mutateAsync(id)}
      shapes={[
        { key: 'cover', label: t('cropper.cover'), aspect: 5 },
        { key: 'normal', label: t('cropper.normal'), aspect: 2.5 },
      ]}
      defaultShape={images.length === 0 ? 'cover' : 'normal'}
      maxBytes={PROJECT_IMAGE_LIMIT}
      onUpload={async (file, fileName, shape) => {
        const res = await uploadProjectImage(g, projectId, file, fileName, shape === 'cover');
        await client.invalidateQueries({ queryKey: sitesKeys.all });
        return res.message;
      }}
    />
  );
}
