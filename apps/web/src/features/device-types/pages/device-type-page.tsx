/**
 * /sys/devicetype: the type tree, and with ?type=… the workbench of one type (loaded apart: it is
 * the biggest screen of the console).
 */
import { Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { PageSpinner } from '../../../components/spinners';
import { lazyComponent } from '../../../lib/lazy-page';
import { TypeList } from '../components/type-list';

const TypeWorkbench = lazyComponent(() => import('../components/type-workbench').then((m) => m.TypeWorkbench));

export function DeviceTypePage() {
  const [searchParams] = useSearchParams();
  const typeId = Number(searchParams.get('type'));
  if (Number.isInteger(typeId) && typeId > 0) {
    return (
      <Suspense fallback={<PageSpinner />}>
        <TypeWorkbench typeId={typeId} />
      </Suspense>
    );
  }
  return <TypeList />;
}
