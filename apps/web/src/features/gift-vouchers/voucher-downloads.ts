import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useState } from 'react';
import { useDispatch } from 'react-redux';
import type { Voucher } from '@kringle/contracts/vouchers';
import type { ApiError } from '../../lib/api-error';
import { toastError } from '../../lib/deferred-toast';
import { downloadFile } from '../../lib/download-file';

export type VoucherFile = 'certificate' | 'receipt';

/** The PDFs' names, as the API names them (receipt-GV-XXXXXXXX.pdf). */
export const voucherFileName = (v: Pick<Voucher, 'id'>, file: VoucherFile) =>
  file === 'certificate'
    ? `santa-gift-voucher-${v.id.slice(0, 8).toUpperCase()}.pdf`
    : `receipt-GV-${v.id.slice(0, 8).toUpperCase()}.pdf`;

const WHAT: Record<VoucherFile, string> = { certificate: 'the certificate', receipt: 'the receipt' };

/**
 * A bought voucher's certificate (with its code and QR) and its receipt: through the app's request path, with the
 * ID token and app check, as a booking's receipts are (lib/download-file.ts).
 */
export function useVoucherDownloads() {
  const dispatch = useDispatch<ThunkDispatch<unknown, unknown, UnknownAction>>();
  const [busy, setBusy] = useState<{ id: string; file: VoucherFile } | null>(null);
  const download = async (v: Pick<Voucher, 'id'>, file: VoucherFile) => {
    setBusy({ id: v.id, file });
    try {
      await dispatch(
        downloadFile({ url: `/vouchers/${v.id}/${file}.pdf`, filename: voucherFileName(v, file), what: WHAT[file] }),
      ).unwrap();
    } catch (error) {
      void toastError((error as ApiError | undefined)?.data?.error ?? `We could not download ${WHAT[file]}.`);
    } finally {
      setBusy(null);
    }
  };
  return { busy, download: (v: Pick<Voucher, 'id'>, file: VoucherFile) => void download(v, file) };
}
