export interface LedgerRow {
  date: string;
  account: string;
  description: string;
  amount: string;
}
