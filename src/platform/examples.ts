// Examples for the OpenAPI document, taken from the demo data (data/demo.json) as the API serves
// it. The compiler checks each against the schema it illustrates (.openapi({ example })), and
// e2e/openapi.test.ts against the generated document, so an example cannot drift from its shape.

export const addressExample = {
  addressline1: "Door No. 230/39, Main Road",
  addressline2: "",
  area: {
    id: 95,
    name: "Banjara Hills",
    area_code: "BH",
    city: { id: 21, name: "Hyderabad", code: "HYD", state: { id: 7, code: "TG", name: "Telangana" } },
  },
  postalcode: { id: 93, code: "500034" },
};

const customerFieldsExample = {
  id: 1,
  contact_person_name: "Harish Iyengar",
  company_name: "Iyengar Brothers",
  display_name: "Iyengar Brothers",
  email: "harish99@yahoo.com",
  contactperson_number: "+91 98200 00001",
  company_phone: "040-20324320",
  gst_treatment: "Registered",
  gstin: "36JFGFI5184M1ZC",
  customer_code: null,
};

export const customerExample = {
  ...customerFieldsExample,
  status: "Active" as const,
  approval: "accepted" as const,
  address: addressExample,
};

export const salesAgentExample = {
  id: 7,
  first_name: "Navdeep",
  last_name: "Bedi",
  mobile_number: "6981182458",
  avatar: null,
  email: "navdeep.bedi7@sales.example.com",
};

export const orderExample = {
  id: 721,
  order_no: "SO-000721",
  item_total_amount: 6278,
  discount_amount: 0,
  return_total_amount: 0,
  billable_amount: 6278,
  date: "2026-01-18",
  products: [
    { id: 7, sku: "RIC-BAS-5K", name: "Basmati Rice 5kg", quantity: 10, price: 620 },
    { id: 14, sku: "DAL-URD-500", name: "Urad Dal 500g", quantity: 1, price: 78 },
  ],
  customer: { ...customerFieldsExample, address: addressExample },
  address: addressExample,
  salesagent: salesAgentExample,
  deliveryagent: { id: 4, first_name: "Amit", last_name: "M", phone_number: "8252443066" },
  laststatus: { name: "Undelivered" as const },
  invoices: [
    {
      id: 696,
      invoice_number: "INV-000696",
      date: "2026-01-20",
      due_date: "2026-02-04",
      total_amount: 6278,
      discount_amount: 0,
      returned_amount: 0,
      invoice_amount: 6278,
      cgst: 0,
      sgst: 0,
      igst: 298.95,
    },
  ],
};

export const paginationExample = {
  current_page: 1,
  first_page_url: "http://127.0.0.1:8787/api/customers?count=10&page=1",
  prev_page_url: null,
  next_page_url: "http://127.0.0.1:8787/api/customers?count=10&page=2",
  last_page_url: "http://127.0.0.1:8787/api/customers?count=10&page=30",
  last_page: 30,
  per_page: 10,
  total: 300,
  path: "http://127.0.0.1:8787/api/customers",
};

export const errorExample = {
  error: {
    code: "VALIDATION_ERROR" as const,
    description: "count must be an integer between 1 and 100",
    source: "http://127.0.0.1:8787/api/customers",
    status_code: 422,
    fields: [{ field: "count", message: "must be an integer between 1 and 100" }],
  },
};

export const areaExample = { id: 1, name: "Andheri East", city_id: 1 };
export const postalCodeExample = { id: 1, code: "400069" };
export const pincodeSalesAgentExample = { id: 5, first_name: "Rajesh", last_name: "Kulkarni", mobile: "9672310936" };
