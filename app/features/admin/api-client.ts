export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The server's name for the refusal, when it gives one (e.g. "stale"). */
    readonly code?: string,
    /** The answer's X-Request-Id: staff find the server's log lines of the request by it. */
    readonly requestId?: string,
    /** The submitted field the server refused, when it names one (e.g. "bedrooms"). */
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * Calls the listing API. XMLHttpRequest rather than fetch because only it reports upload
 * progress; a JSON body is sent as JSON, a FormData body as multipart, a file as it is.
 */
export function apiRequest<T = unknown>(
  method: "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  body?: FormData | Blob | object,
  onProgress?: (fraction: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.responseType = "text";
    if (onProgress) {
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress(e.loaded / e.total);
      };
    }
    xhr.onload = () => {
      let json: unknown = null;
      try {
        json = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        json = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(json as T);
      else {
        const body = json as {
          error?: string;
          code?: string;
          field?: string;
          reference?: string | null;
          requestId?: string;
        } | null;
        // The header is on every answer; a fault's body names the id too (a proxy may drop headers).
        const requestId =
          xhr.getResponseHeader("X-Request-Id") ?? body?.reference ?? body?.requestId ?? undefined;
        reject(
          new ApiError(
            xhr.status,
            body?.error ?? `HTTP ${xhr.status}`,
            body?.code,
            requestId,
            body?.field,
          ),
        );
      }
    };
    xhr.onerror = () => reject(new ApiError(0, "The server could not be reached."));
    if (body instanceof FormData) xhr.send(body);
    else if (body instanceof Blob) {
      xhr.setRequestHeader("Content-Type", body.type || "application/octet-stream");
      xhr.send(body);
    } else if (body !== undefined) {
      xhr.setRequestHeader("Content-Type", "application/json");
      xhr.send(JSON.stringify(body));
    } else xhr.send();
  });
}

export const apiUrl = (collection: string, id?: string, tail = "") =>
  `/api/listings/${collection}${id === undefined ? "" : `/${encodeURIComponent(id)}`}${tail}`;
