// A chosen document sent at once, with its progress (docs/behaviour.md §32): loaded when a file
// is chosen, so that the application's pages do not carry it (application-pages.tsx).

import { APPLY_MESSAGES } from "./apply-view";

/** Sends `body` (the step's form as it was when the file was chosen) to `action`. */
export function sendUpload(
  input: HTMLInputElement,
  body: FormData,
  action: string,
  on: {
    progress: (progress: number | null) => void;
    failed: (message: string | null) => void;
    sent: () => void;
  },
) {
  const xhr = new XMLHttpRequest();
  xhr.open("POST", action);
  xhr.upload.onprogress = (e) => {
    if (e.lengthComputable) on.progress(e.loaded / e.total);
  };
  xhr.onload = () => {
    on.progress(null);
    if (xhr.status < 400) {
      // The upload answered 303 to the step: show the new list (the form starts empty).
      on.failed(null);
      input.value = "";
      on.sent();
      return;
    }
    // A refusal is the page with its message beside the file: show that message here.
    const page = new DOMParser().parseFromString(xhr.responseText, "text/html");
    const message = page.querySelector(".application-upload .field-error, [role=alert]");
    on.failed(message?.textContent?.trim() || APPLY_MESSAGES.uploadFailed);
    input.value = "";
  };
  xhr.onerror = () => {
    on.progress(null);
    on.failed(APPLY_MESSAGES.uploadFailed);
  };
  on.failed(null);
  on.progress(0);
  xhr.send(body);
}
