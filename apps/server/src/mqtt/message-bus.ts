/** How the server publishes (commands to devices, events to consoles): the embedded broker or an external one. */
export interface PublishOptions {
  qos: 0 | 1;
  retain?: boolean;
}

export interface MessageBus {
  publish(topic: string, payload: string, options: PublishOptions): Promise<void>;
}

/** Until a broker is attached (and in route tests without one), publishing goes nowhere. */
export class NullBus implements MessageBus {
  readonly published: { topic: string; payload: string }[] = [];
  publish(topic: string, payload: string): Promise<void> {
    this.published.push({ topic, payload });
    if (this.published.length > 100) this.published.shift();
    return Promise.resolve();
  }
}

/** A bus whose target is chosen later (the broker starts after the services that publish). */
export class SwitchableBus implements MessageBus {
  private target: MessageBus = new NullBus();
  use(target: MessageBus): void {
    this.target = target;
  }
  publish(topic: string, payload: string, options: PublishOptions): Promise<void> {
    return this.target.publish(topic, payload, options);
  }
}
