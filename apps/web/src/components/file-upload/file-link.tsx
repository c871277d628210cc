import { Flex, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { formatBytes } from './file-upload-dialog';

/** A stored file in a list: its name, downloaded under that name, and its size below. */
export function FileLink({ url, fileName, size }: { url: string; fileName: string; size: number }) {
  return (
    <Flex vertical>
      <Typography.Link href={url} download={fileName}>
        <DownloadOutlined aria-hidden /> {fileName}
      </Typography.Link>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {formatBytes(size)}
      </Typography.Text>
    </Flex>
  );
}
