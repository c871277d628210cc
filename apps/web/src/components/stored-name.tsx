/** A stored name in the user's language (lib/stored-names.ts), the stored text on hover when they differ. */
import { useStoredName } from '../lib/stored-names';

export function StoredName({ text }: { text: string }) {
  const shown = useStoredName()(text);
  return <span title={shown !== text ? text : undefined}>{shown}</span>;
}
