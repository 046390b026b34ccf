/** Hands a blob to the browser as a download. */
export function saveBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // the browser reads the blob after click() returns, later still on a busy machine: revoking at once can lose
  // the download, so the URL lives on for a while (as FileSaver.js does)
  setTimeout(() => URL.revokeObjectURL(url), 40_000);
}
