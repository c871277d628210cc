/** A long list shown a page at a time, with a button for the next page (spec §2 load-more button). */
import { useState, type ReactNode } from 'react';
import { Button, Flex } from 'antd';
import { useTranslation } from 'react-i18next';

export function LoadMore<T>({
  items,
  pageSize = 8,
  children,
}: {
  items: readonly T[];
  pageSize?: number;
  /** Draws the items shown so far. */
  children: (shown: readonly T[]) => ReactNode;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(pageSize);
  const left = items.length - shown;
  return (
    <Flex vertical gap={8}>
      {children(items.slice(0, shown))}
      {left > 0 ? (
        <Button
          size="small"
          type="dashed"
          onClick={() => {
            setShown((n) => n + pageSize);
          }}
        >
          {t('dashboard.loadMore', { count: left })}
        </Button>
      ) : null}
    </Flex>
  );
}
