/** A project or station as a card: cover image, counts of stations and devices, online and offline. */
import type { ReactNode } from 'react';
import { Card, Flex, Statistic, Typography, theme } from 'antd';
import { EnvironmentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ProjectDto } from '../api/projects-api';
import { SiteStateTag } from '../../../components/sites/state-tag';

export function ProjectCard({
  project,
  onOpen,
  actions,
}: {
  project: ProjectDto;
  onOpen: (project: ProjectDto) => void;
  actions?: ReactNode[];
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const station = project.ProjectKind === 'station';
  const place = [project.ParentName, project.Address].filter(Boolean).join(' · ');
  return (
    <Card
      hoverable
      size="small"
      role="article"
      tabIndex={0}
      aria-label={project.Name}
      data-project-id={project.Id}
      onClick={() => {
        onOpen(project);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && event.target === event.currentTarget) onOpen(project);
      }}
      actions={actions}
      cover={
        project.Image ? (
          <img src={project.Image} alt="" style={{ height: 96, objectFit: 'cover' }} />
        ) : (
          <div
            style={{
              height: 96,
              display: 'grid',
              placeItems: 'center',
              background: token.colorFillQuaternary,
              color: token.colorTextTertiary,
            }}
            aria-hidden
          >
            <EnvironmentOutlined style={{ fontSize: 28 }} />
          </div>
        )
      }
    >
      <Flex justify="space-between" align="center" gap={8}>
        <Typography.Title level={3} style={{ fontSize: 16, margin: 0, minWidth: 0 }} ellipsis={{ tooltip: project.Name }}>
          {project.Name}
        </Typography.Title>
        <SiteStateTag site={project} />
      </Flex>
      <Typography.Text type="secondary" ellipsis={{ tooltip: place }} style={{ display: 'block', fontSize: 12, marginBottom: 8 }}>
        {place}
      </Typography.Text>
      <Flex gap={16} wrap>
        {!station && (
          <Statistic title={t('sites.counts.stations')} value={project.SitesNum} styles={{ content: { fontSize: 18 } }} />
        )}
        <Statistic title={t('sites.counts.devices')} value={project.DeviceNum} styles={{ content: { fontSize: 18 } }} />
        <Statistic
          title={t('sites.counts.online')}
          value={project.OnlineNum}
          styles={{ content: { fontSize: 18, color: token.colorSuccess } }}
        />
        <Statistic
          title={t('sites.counts.offline')}
          value={project.OfflineNum}
          styles={{
            content: { fontSize: 18, color: token.colorTextSecondary },
          }}
        />
      </Flex>
    </Card>
  );
}
