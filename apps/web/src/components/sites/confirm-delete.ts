/** Deleting after asking, for projects, stations and devices. */
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ApiResponse } from '../../lib/api-client';
import { errorMessage } from '../../lib/form-errors';

export interface DeleteRequest {
  title: string;
  content: string;
  call: () => Promise<ApiResponse<unknown>>;
  /** Runs once it is deleted. */
  after?: () => void;
}

/** Asks (a danger Delete button), makes the call, and says the server's message (or "Deleted") or its error. */
export function useConfirmDelete() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  return ({ title, content, call, after }: DeleteRequest) => {
    modal.confirm({
      title,
      content,
      okText: t('sites.actions.delete'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const res = await call();
          void message.success(res.message || t('sites.actions.deleted'));
          after?.();
        } catch (error) {
          void message.error(errorMessage(error));
        }
      },
    });
  };
}
