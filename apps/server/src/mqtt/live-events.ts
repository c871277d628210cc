/**
 * Live notifications for consoles, published on each device's event topic: online changes,
 * alarms opened and closed, command acknowledgements and time-outs. At most once (QoS 0): a console that
 * missed one reloads the state through the API after reconnecting.
 */
import type { TopicCodec, EventMessage } from '@sluice/shared/device-protocol';
import type { MessageBus } from './message-bus.ts';
import { afterCommit } from '../db/request-transaction.ts';

export class LiveEvents {
  private readonly bus: MessageBus;
  private readonly topics: TopicCodec;
  private readonly onError: (error: unknown) => void;

  constructor(bus: MessageBus, topics: TopicCodec, onError: (error: unknown) => void) {
    this.bus = bus;
    this.topics = topics;
    this.onError = onError;
  }

  /** Publishes the event; in a request, once its writes have committed (a console reloading then sees them). */
  emit(groupId: number, event: EventMessage): void {
    afterCommit(() => {
      this.bus
        .publish(this.topics.topic('event', event.DeviceSn, groupId), JSON.stringify(event), { qos: 0 })
        .catch(this.onError);
    });
  }
}
