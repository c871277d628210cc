/**
 * What happens to a device, as events: the devices service emits them (devices.service.ts) and
 * other features' named handlers subscribe to them in the composition root (app-context.ts), so
 * reading either place tells what follows a write.
 *
 * `created`, `typeChanged` and `purged` are emitted inside the writing transaction: each handler
 * gets that transaction, they run in the order they subscribed, and an error in one rolls the
 * write back. `changed` is told after a write has committed (live data then forgets what it
 * cached of the device).
 */
import type { Db } from '../../db/database.ts';
import { afterCommit } from '../../db/request-transaction.ts';

export interface DeviceRef {
  groupId: number;
  deviceSn: string;
  typeId: number | null;
}

export interface DeviceEventMap {
  /** A device was added. */
  created: DeviceRef;
  /** A device has another type now (`typeId`; `previousTypeId` was its type). */
  typeChanged: DeviceRef & { previousTypeId: number | null };
  /** A device leaves the recycle bin for good; its own row is deleted after the handlers ran. */
  purged: DeviceRef;
}

export type DeviceEvent = keyof DeviceEventMap;
export type DeviceEventHandler<E extends DeviceEvent> = (trx: Db, event: DeviceEventMap[E]) => Promise<void>;

interface Subscription<E extends DeviceEvent> {
  name: string;
  handle: DeviceEventHandler<E>;
}

export class DeviceEvents {
  private readonly subscriptions: { [E in DeviceEvent]: Subscription<E>[] } = { created: [], typeChanged: [], purged: [] };
  private readonly changeListeners: { name: string; listen: (deviceSn: string) => void }[] = [];

  /** Subscribes a named handler to an event emitted inside the writing transaction. */
  on<E extends DeviceEvent>(event: E, name: string, handle: DeviceEventHandler<E>): void {
    (this.subscriptions[event] as Subscription<E>[]).push({ name, handle });
  }

  /** Runs the event's handlers in the writing transaction, in the order they subscribed. */
  async emit<E extends DeviceEvent>(event: E, trx: Db, payload: DeviceEventMap[E]): Promise<void> {
    for (const { handle } of this.subscriptions[event] as Subscription<E>[]) await handle(trx, payload);
  }

  /** Subscribes a named listener to committed changes of a device. */
  onChanged(name: string, listen: (deviceSn: string) => void): void {
    this.changeListeners.push({ name, listen });
  }

  /** Tells the listeners that a write to the device has committed (in a request: once its writes have). */
  changed(deviceSn: string): void {
    afterCommit(() => {
      for (const { listen } of this.changeListeners) listen(deviceSn);
    });
  }

  /** The names of the subscribed handlers, by event. */
  handlerNames(): Record<DeviceEvent | 'changed', string[]> {
    return {
      created: this.subscriptions.created.map((s) => s.name),
      typeChanged: this.subscriptions.typeChanged.map((s) => s.name),
      purged: this.subscriptions.purged.map((s) => s.name),
      changed: this.changeListeners.map((l) => l.name),
    };
  }
}
