import { App, Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { setPasswordRequest } from '@sluice/shared/account.schema';
import type { UserListItem } from '@sluice/shared/user-admin.schema';
import { applyServerFieldErrors, errorMessage } from '../../../lib/form-errors';
import { matchesField, zodRules } from '../../../lib/zod-form';
import { useResetUserPassword } from '../api/users-api';

interface Values {
  Password: string;
  PasswordAgain: string;
}

/** An administrator sets another user's password (PUT user/password); their sessions end. */
export function ResetPasswordDialog({ user, onClose }: { user: UserListItem | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const mutation = useResetUserPassword();
  const name = user ? user.UserName || user.Account : '';

  const onFinish = (values: Values) => {
    if (!user) return;
    mutation.mutate(
      { Id: user.Id, Password: values.Password },
      {
        onSuccess: (response) => {
          void message.success(response.message);
          onClose();
        },
        onError: (error) => {
          if (!applyServerFieldErrors(form, error, ['Password'])) void message.error(errorMessage(error));
        },
      },
    );
  };

  return (
    <Modal
      open={user !== undefined}
      title={t('users.resetPasswordTitle', { name })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => {
        form.submit();
      }}
      onCancel={onClose}
      confirmLoading={mutation.isPending}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form<Values> form={form} name="reset-password" layout="vertical" onFinish={onFinish}>
        <Typography.Paragraph type="secondary">{t('users.resetPasswordHint')}</Typography.Paragraph>
        {/* The account, for password managers. */}
        <input type="text" name="username" autoComplete="username" value={user?.Account ?? ''} readOnly hidden />
        <Form.Item label={t('users.newPassword')} name="Password" rules={zodRules(setPasswordRequest, 'Password')}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label={t('users.passwordAgain')}
          name="PasswordAgain"
          dependencies={['Password']}
          rules={[{ required: true, message: t('rule.required') }, matchesField('Password')]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
