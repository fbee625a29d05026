import { v7, validate } from 'uuid';

/** New ids are UUIDv7: time-ordered, so indexes stay compact and lists sort by creation. */
export const newId = (): string => v7();

export const isUuid = (value: unknown): value is string => typeof value === 'string' && validate(value);
