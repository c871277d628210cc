/** The response envelope every API call answers with. */
export interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
  count?: number;
}

export interface FieldError {
  field: string;
  message: string;
}
