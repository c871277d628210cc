import { useEffect } from 'react';
import { App, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { updateProfileRequest, type UpdateProfileRequest, type UserDto } from '@sluice/shared/account.schema';
import { applyServerFieldErrors, errorMessage } from '../../../lib/form-errors';
import { zodRules } from '../../../lib/zod-form';
import { useUpdateProfile } from '../api/account-api';

const FIELDS = ['UserName', 'Email', 'Phone'] as const;

/** Own profile: name, e-mail and phone (PUT /api/user), checked with the server's own rules. */
export function ProfileForm({ user }: { user: UserDto }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<UpdateProfileRequest>();
  const mutation = useUpdateProfile();

  useEffect(() => {
    form.setFieldsValue({ UserName: user.UserName, Email: user.Email, Phone: user.Phone });
  }, [form, user.UserName, user.Email, user.Phone]);

  const onFinish = (values: UpdateProfileRequest) => {
    mutation.mutate(
      { UserName: values.UserName.trim(), Email: values.Email?.trim() ?? '', Phone: values.Phone?.trim() ?? '' },
      {
        onSuccess: (response) => {
          void message.success(response.message);
        },
        onError: (error) => {
          if (!applyServerFieldErrors(form, error, FIELDS)) void message.error(errorMessage(error));
        },
      },
    );
  };

  return (
    <Form<UpdateProfileRequest> form={form} name="profile" layout="vertical" onFinish={onFinish} style={{ maxWidth: 420 }}>
      <Form.Item label={t('userInfo.userName')} name="UserName" rules={zodRules(updateProfileRequest, 'UserName')}>
        <Input autoComplete="name" />
      </Form.Item>
      <Form.Item label={t('userInfo.email')} name="Email" rules={zodRules(updateProfileRequest, 'Email')}>
        <Input type="email" autoComplete="email" />
      </Form.Item>
      <Form.Item label={t('userInfo.phone')} name="Phone" rules={zodRules(updateProfileRequest, 'Phone')}>
        <Input type="tel" autoComplete="tel" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={mutation.isPending}>
        {t('common.save')}
      </Button>
    </Form>
  );
}
