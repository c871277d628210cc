/**
 * Own avatar (spec §2 user information, §7 user/Picture, §9 2 MB and a 1:1 crop): the picture,
 * 'Change avatar' through the image cropper (PNG or JPEG, square) and 'Remove' after a question.
 */
import { useState } from 'react';
import { App, Avatar, Button, Flex } from 'antd';
import { DeleteOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { AVATAR_LIMIT, type UserDto } from '@sluice/shared/account.schema';
import { ImageCropperDialog } from '../../../components/image-cropper/image-cropper-dialog';
import { errorMessage } from '../../../lib/form-errors';
import { removeAvatar, uploadAvatar } from '../api/account-api';

export function AvatarCard({ user }: { user: UserDto }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [open, setOpen] = useState(false);
  const confirmRemove = () => {
    modal.confirm({
      title: t('avatar.removeTitle'),
      okText: t('avatar.remove'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const res = await removeAvatar();
          void message.success(res.message);
        } catch (error) {
          void message.error(errorMessage(error));
        }
      },
    });
  };
  return (
    <Flex gap={16} align="center" wrap>
      <Avatar
        size={96}
        src={user.Picture || undefined}
        icon={<UserOutlined />}
        alt={user.Picture ? t('avatar.alt', { name: user.UserName || user.Account }) : undefined}
      />
      <Flex vertical gap={8}>
        <Button
          icon={<UploadOutlined aria-hidden />}
          onClick={() => {
            setOpen(true);
          }}
        >
          {t('avatar.change')}
        </Button>
        {user.Picture && (
          <Button danger icon={<DeleteOutlined aria-hidden />} onClick={confirmRemove}>
            {t('avatar.remove')}
          </Button>
        )}
      </Flex>
      <ImageCropperDialog
        open={open}
        title={t('avatar.change')}
        onClose={() => {
          setOpen(false);
        }}
        shapes={[{ key: 'square', label: t('avatar.square'), aspect: 1 }]}
        kinds={['png', 'jpeg']}
        maxBytes={AVATAR_LIMIT}
        onUpload={async (file, fileName) => (await uploadAvatar(file, fileName)).message}
      />
    </Flex>
  );
}
