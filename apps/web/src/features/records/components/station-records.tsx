/** A station's field records on its page: its standard, water quality, repairs and rounds. */
import { Flex, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { PollTable } from './poll-table';
import { QualityTable } from './quality-table';
import { RepairTable } from './repair-table';
import { StationStandard } from './station-standard';

export function StationRecords({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={12}>
      <StationStandard projectId={projectId} />
      <Tabs
        size="small"
        items={[
          { key: 'quality', label: t('records.quality.tab'), children: <QualityTable projectId={projectId} /> },
          { key: 'repairs', label: t('records.repair.tab'), children: <RepairTable params={{ ProjectId: projectId }} /> },
          { key: 'polls', label: t('records.poll.tab'), children: <PollTable params={{ ProjectId: projectId }} /> },
        ]}
      />
    </Flex>
  );
}
