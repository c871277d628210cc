/**
 * Transfers that the one API client does not make with fetch: a multipart upload with progress
 * (XMLHttpRequest) and a download behind the session saved as a file. Same session cookie, language,
 * envelope, errors, 401 handling and cache clearing as every other call.
 */
import {
  ApiError,
  DATA_FORMAT_ERROR,
  MISSING_MESSAGE,
  apiHooks,
  buildUrl,
  fieldErrorsOf,
  type ApiResponse,
  type QueryParams,
} from './api-client';
import { clearSessionCookies } from './cookies';
import { currentLanguage, i18n } from './i18n';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Upload progress: bytes sent so far of the total. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * A multipart upload with progress (fetch cannot report it): the same session cookie, language,
 * envelope, errors, 401 handling and cache clearing as every other write.
 */
export function uploadWithProgress<T>(
  path: string,
  form: FormData,
  options: {
    method?: 'POST' | 'PUT';
    params?: QueryParams;
    onProgress?: (progress: UploadProgress) => void;
    signal?: AbortSignal;
  } = {},
): Promise<ApiResponse<T>> {
  return new Promise<ApiResponse<T>>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(options.method ?? 'POST', buildUrl(path, options.params));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', currentLanguage());
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.({ loaded: event.loaded, total: event.total });
    };
    xhr.onerror = () => {
      reject(new ApiError(i18n.t('errors.network'), { status: 0 }));
    };
    xhr.onabort = () => {
      reject(new DOMException('The upload was cancelled', 'AbortError'));
    };
    xhr.onload = () => {
      let envelope: unknown;
      try {
        envelope = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        envelope = undefined;
      }
      if (xhr.status === 401) {
        clearSessionCookies();
        sessionStorage.clear();
        apiHooks().onUnauthorized(window.location.pathname + window.location.search);
      }
      if (!isRecord(envelope) || typeof envelope.success !== 'boolean') {
        reject(new ApiError(xhr.status === 413 ? i18n.t('uploads.tooLarge') : DATA_FORMAT_ERROR, { status: xhr.status }));
        return;
      }
      const message = typeof envelope.message === 'string' ? envelope.message : '';
      if (!envelope.success || xhr.status < 200 || xhr.status >= 300) {
        reject(
          new ApiError(message || MISSING_MESSAGE, {
            status: xhr.status,
            fieldErrors: fieldErrorsOf(envelope.data),
            data: envelope.data,
          }),
        );
        return;
      }
      apiHooks().onWrite();
      resolve({ data: envelope.data as T, message });
    };
    options.signal?.addEventListener('abort', () => {
      xhr.abort();
    });
    xhr.send(form);
  });
}

/** Downloads a file the API serves behind the session (a CSV export) and saves it under `fileName`. */
export async function downloadFile(path: string, fileName: string, params?: QueryParams): Promise<void> {
  const headers = new Headers({ 'Accept-Language': currentLanguage() });
  let response: Response;
  try {
    response = await fetch(buildUrl(path, params), { headers, credentials: 'same-origin' });
  } catch {
    throw new ApiError(i18n.t('errors.network'), { status: 0 });
  }
  if (!response.ok) {
    let message = '';
    try {
      const envelope: unknown = await response.json();
      if (isRecord(envelope) && typeof envelope.message === 'string') message = envelope.message;
    } catch {
      // not JSON
    }
    if (response.status === 401) {
      clearSessionCookies();
      sessionStorage.clear();
      apiHooks().onUnauthorized(window.location.pathname + window.location.search);
    }
    throw new ApiError(message || MISSING_MESSAGE, { status: response.status });
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 1000);
}
