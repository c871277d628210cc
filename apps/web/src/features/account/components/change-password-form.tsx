import { App, Button, Form, Input, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { changePasswordRequest, type ChangePasswordRequest } from '@sluice/shared/account.schema';
import { applyServerFieldErrors, errorMessage } from '../../../lib/form-errors';
import { LOGIN_PATH } from '../../../lib/paths';
import { leaveSession } from '../../../lib/session';
import { zodObjectRule, zodRules } from '../../../lib/zod-form';
import { useChangePassword } from '../api/account-api';

const FIELDS = ['OldPassword', 'Password', 'PasswordAgain'] as const;
const fields = changePasswordRequest.out;

/**
 * Own password change (POST /api/user/password). The server then signs out every session,
 * so on success the user lands on the sign-in page with the server's message.
 */
export function ChangePasswordForm({ idPrefix = 'change-password' }: { idPrefix?: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<ChangePasswordRequest>();
  const mutation = useChangePassword();

  const onFinish = (values: ChangePasswordRequest) => {
    mutation.mutate(values, {
      onSuccess: (response) => {
        void leaveSession(() => navigate(LOGIN_PATH, { replace: true, state: { notice: response.message } }), {
          revoke: false,
        });
      },
      onError: (error) => {
        if (!applyServerFieldErrors(form, error, FIELDS)) void message.error(errorMessage(error));
      },
    });
  };

  return (
    <Form<ChangePasswordRequest> form={form} name={idPrefix} layout="vertical" onFinish={onFinish} style={{ maxWidth: 420 }}>
      <Typography.Paragraph type="secondary">{t('password.hint')}</Typography.Paragraph>
      <Form.Item label={t('password.old')} name="OldPassword" rules={zodRules(fields, 'OldPassword')}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item label={t('password.new')} name="Password" rules={zodRules(fields, 'Password')}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label={t('password.again')}
        name="PasswordAgain"
        dependencies={['Password']}
        rules={[...zodRules(fields, 'PasswordAgain'), zodObjectRule(changePasswordRequest, 'PasswordAgain')]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={mutation.isPending}>
        {t('password.submit')}
      </Button>
    </Form>
  );
}
