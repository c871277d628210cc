/**
 * The user's group: its name, code and logo; its administrator turns the watermark of the
 * group's pages (spec §2) on or off here (PUT group/watermark).
 */
import { App, Descriptions, Image, Switch, Typography } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { GroupDto } from '@sluice/shared/group.schema';
import { api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/form-errors';
import { groupKeys, useOwnGroup } from '../../../lib/group';

export function GroupCard({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const { data: group } = useOwnGroup();
  const save = useMutation({
    mutationFn: (on: boolean) => api.put<GroupDto>('/group/watermark', { Watermark: on }),
    onSuccess: async (res) => {
      void message.success(res.message);
      await client.invalidateQueries({ queryKey: groupKeys.all });
    },
    onError: (error) => void message.error(errorMessage(error)),
  });
  if (!group) return null;
  return (
    <Descriptions
      column={1}
      items={[
        { key: 'name', label: t('userInfo.group'), children: group.GroupName },
        { key: 'code', label: t('tenants.code'), children: <Typography.Text copyable>{group.Code}</Typography.Text> },
        ...(group.Logo
          ? [
              {
                key: 'logo',
                label: t('tenants.logo'),
                children: (
                  <Image src={group.Logo} alt={t('tenants.logoOf', { name: group.GroupName })} height={40} preview={false} />
                ),
              },
            ]
          : []),
        {
          key: 'watermark',
          label: t('tenants.watermark'),
          children: isAdmin ? (
            <Switch
              checked={group.Watermark}
              loading={save.isPending}
              aria-label={t('tenants.watermark')}
              onChange={(on) => {
                save.mutate(on);
              }}
            />
          ) : group.Watermark ? (
            t('tenants.on')
          ) : (
            t('tenants.off')
          ),
        },
      ]}
    />
  );
}
